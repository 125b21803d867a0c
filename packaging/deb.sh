#!/usr/bin/env bash
# Builds Torchwright and its Debian package: build/package/torchwright_<version>_<arch>.deb, whose
# dependencies dpkg-shlibdeps computes from the binaries. Install it with
#   sudo apt install ./build/package/torchwright_*.deb
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
"$root/packaging/build.sh"
cpack --config build/CPackConfig.cmake
ls -1 "$root"/build/package/torchwright_*.deb
