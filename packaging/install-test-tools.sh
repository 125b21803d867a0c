#!/usr/bin/env bash
# Installs what the tests run exported models with that Debian does not package: ONNX Runtime,
# the npm package onnxruntime-node (its CPU runtime ships inside), into build/onnxruntime.
# Idempotent; test.sh and .ci/run call it.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
dir="$root/build/onnxruntime"
version=1.31.1
if [ -f "$dir/node_modules/onnxruntime-node/package.json" ] &&
   grep -q "\"version\": \"$version\"" "$dir/node_modules/onnxruntime-node/package.json"; then
  exit 0
fi
if ! command -v npm >/dev/null; then
  # Debian's nodejs comes without npm (a Node.js from elsewhere brings its own, which a Debian npm
  # package would conflict with): install Debian's only when there is none.
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends npm >/dev/null ||
    { echo "npm is missing and could not be installed (apt-get install npm)" >&2; exit 1; }
fi
mkdir -p "$dir"
echo "Installing onnxruntime-node $version into $dir"
(cd "$dir" && [ -f package.json ] || echo '{"private": true}' > package.json)
npm install --prefix "$dir" --ignore-scripts --no-audit --no-fund --silent "onnxruntime-node@$version"
