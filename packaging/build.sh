#!/usr/bin/env bash
# Configures and builds the Release tree in build/ (binaries in build/bin/). ccache is used when
# present; LibTorch headers are precompiled once for the engine.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
"$root/packaging/install-deps.sh"
jobs=${TW_JOBS:-$(nproc)}
if [ ! -f build/CMakeCache.txt ]; then
  cmake --preset release >/dev/null
fi
cmake --build build -j "$jobs" "$@"
