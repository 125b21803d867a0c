#!/usr/bin/env bash
# The main job: builds Torchwright, then opens Studio on the default workspace with the bundled
# Fashion-MNIST example training live in it. Without a display, trains the same example headless
# and prints its summary table and the workspace's runs.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/packaging/build.sh"
bin="$root/build/bin"
example="$root/resources/examples/fashion_mlp.run.yaml"
workspace="${TW_WORKSPACE:-${XDG_DATA_HOME:-$HOME/.local/share}/torchwright}"

if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  log="$workspace/example-train.log"
  mkdir -p "$workspace"
  # Detached in its own session: closing Studio does not stop the training.
  setsid "$bin/torchwright" train "$example" --workspace "$workspace" >"$log" 2>&1 < /dev/null &
  echo "Training the example in the background (log: $log); opening Studio."
  exec "$bin/torchwright-studio" --workspace "$workspace" "$@"
fi

echo "No display: training the example headless."
"$bin/torchwright" train "$example" --workspace "$workspace" "$@"
echo
"$bin/torchwright" runs list --workspace "$workspace" --limit 10
