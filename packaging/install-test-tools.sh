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
  echo "npm is missing: install Node.js (Debian: apt-get install nodejs npm)" >&2
  exit 1
fi
mkdir -p "$dir"
echo "Installing onnxruntime-node $version into $dir"
(cd "$dir" && [ -f package.json ] || echo '{"private": true}' > package.json)
npm install --prefix "$dir" --ignore-scripts --no-audit --no-fund --silent "onnxruntime-node@$version"
