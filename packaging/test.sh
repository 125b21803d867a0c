#!/usr/bin/env bash
# Builds everything and runs the whole CTest suite (unit, integration and GUI tests on the
# offscreen platform, and the export tests against python3-torch and ONNX Runtime). Tests
# labelled `gpu` are skipped on machines without a CUDA build.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/packaging/build.sh"
"$root/packaging/install-test-tools.sh"
cd "$root/build"
export QT_QPA_PLATFORM=offscreen
ctest --output-on-failure --label-exclude gpu -j "${TW_TEST_JOBS:-1}" "$@"
