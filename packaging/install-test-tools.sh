#!/usr/bin/env bash
# Installs what the tests need that Debian does not package, from npm into build/onnxruntime:
# ONNX Runtime (onnxruntime-node, its CPU runtime inside) to run exported models, and
# kubernetes-models, whose schemas check the Kubernetes Jobs the sweep driver writes.
# Idempotent; test.sh and .ci/run call it.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
dir="$root/build/onnxruntime"
version=1.31.1
k8s_version=5.1.0
installed() {  # package version
  [ -f "$dir/node_modules/$1/package.json" ] && grep -q "\"version\": \"$2\"" "$dir/node_modules/$1/package.json"
}
if installed onnxruntime-node "$version" && installed kubernetes-models "$k8s_version"; then
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
echo "Installing onnxruntime-node $version and kubernetes-models $k8s_version into $dir"
(cd "$dir" && [ -f package.json ] || echo '{"private": true}' > package.json)
npm install --prefix "$dir" --ignore-scripts --no-audit --no-fund --silent "onnxruntime-node@$version" \
  "kubernetes-models@$k8s_version"
