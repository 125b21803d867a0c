#!/usr/bin/env bash
# A benchmark of the first build, the long part of a fresh set-up: clones this repository's
# COMMIT (default HEAD) into a temporary folder, configures the release preset there and builds
# everything with the compiler cache off, as a new machine does. Prints the wall time, the build
# steps and the compile time each part of the tree took (from ninja's log), then a JSON line.
# It asserts nothing: a build's time depends on the machine, and the figures are for comparing
# two commits on one machine (run it for both, one after the other, on an idle machine).
#
#   packaging/bench-cold-build.sh            # HEAD, all cores
#   TW_JOBS=2 packaging/bench-cold-build.sh 0a224db
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
case "${1:-}" in -h|--help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
commit=${1:-HEAD}
jobs=${TW_JOBS:-$(nproc)}
"$root/packaging/install-deps.sh"

work=$(mktemp -d "${TMPDIR:-/tmp}/tw-cold-build.XXXXXX")
trap 'rm -rf "$work"' EXIT
git clone -q "$root" "$work/src"
git -C "$work/src" checkout -q "$(git -C "$root" rev-parse "$commit")"
cd "$work/src"
export CCACHE_DISABLE=1
start=$(date +%s.%N)
cmake --preset release >/dev/null
configured=$(date +%s.%N)
cmake --build build -j "$jobs" >"$work/build.log" 2>&1 || { tail -20 "$work/build.log"; exit 1; }
built=$(date +%s.%N)

# One step may write several files (moc's), each a line of ninja's log with the step's times and
# command hash: counted once.
steps=$(awk 'NR > 1 && !seen[$1 " " $2 " " $5]++' build/.ninja_log | wc -l)
# Compile seconds by part of the tree: the engine, the other core libraries, Studio's library,
# the programs, Studio's tests and the other tests.
parts=$(awk -v build="$PWD/build/" 'NR > 1 && !seen[$1 " " $2 " " $5]++ {
    s = ($2 - $1) / 1000; p = $4
    if (index(p, build) == 1) p = substr(p, length(build) + 1)
    if (p ~ /tw_engine\.dir/) k = "engine"; else if (p ~ /^(core|tracking)\//) k = "core";
    else if (p ~ /^ui\//) k = "ui"; else if (p ~ /^app\//) k = "programs";
    else if (p ~ /^tests\/ui\//) k = "studio_tests"; else if (p ~ /^tests\//) k = "other_tests"; else k = "other";
    t[k] += s; total += s }
  END { for (k in t) printf "%s %.0f\n", k, t[k]; printf "total %.0f\n", total }' build/.ninja_log | sort)

commit_id=$(git rev-parse --short HEAD)
configure_s=$(awk -v a="$start" -v b="$configured" 'BEGIN { printf "%.1f", b - a }')
build_s=$(awk -v a="$configured" -v b="$built" 'BEGIN { printf "%.1f", b - a }')
printf 'cold build of %s on %s cores: configure %.0f s, build %.0f s (%.1f min), %s steps\n' \
  "$commit_id" "$jobs" "$configure_s" "$build_s" "$(awk -v s="$build_s" 'BEGIN { print s / 60 }')" "$steps"
echo "compile seconds by part (summed over cores):"
echo "$parts" | awk '{ printf "  %-13s %6s s\n", $1, $2 }'
json_parts=$(echo "$parts" | awk 'BEGIN { ORS = "" } { printf "%s\"%s\": %s", NR > 1 ? ", " : "", $1, $2 }')
printf '{"bench": "cold_build", "commit": "%s", "jobs": %s, "configure_s": %.1f, "build_s": %.1f, "steps": %s, "compile_s": {%s}}\n' \
  "$commit_id" "$jobs" "$configure_s" "$build_s" "$steps" "$json_parts"
