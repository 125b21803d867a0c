#!/usr/bin/env bash
# Builds everything and runs the whole CTest suite (unit, integration and GUI tests on the
# offscreen platform). Tests labelled `gpu` are skipped on machines without a CUDA build.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/packaging/build.sh"
cd "$root/build"
export QT_QPA_PLATFORM=offscreen
ctest --output-on-failure --label-exclude gpu -j "${TW_TEST_JOBS:-1}" "$@"
