#!/usr/bin/env bash
# Builds and runs the tests under a sanitizer with gcc, each in its own tree:
#   asan (default): AddressSanitizer + UBSan, every target in build-asan/, the whole suite but the
#                   `gpu` label (unit, integration and GUI tests; the CLI and worker children the
#                   tests start are instrumented too);
#   tsan:           ThreadSanitizer in build-tsan/, the tests labelled `threads` (decode workers,
#                   shard verifier, MetricWriter, the prefetching BatchStream; Studio's pollers
#                   need a TSan-built Qt, tests/CMakeLists.txt says why).
# ASan and TSan write each process's report to <build>/sanitizer-logs/<tool>.<pid> (a child's
# stderr may be kept by the test that started it); gcc's UBSan runtime ignores log_path and prints
# to stderr, where it ends the process with status 1, so a child's finding fails its test. Any
# report fails the run. Extra arguments go to ctest.
# TW_JOBS sets the build's parallelism, TW_TEST_JOBS the tests' (as in test.sh). Prints one line
# for people and one JSON line for CI.
# Both presets compile with -O1 -g1: line tables name every frame of a report, and full debug
# information over LibTorch's headers costs build time that nothing reads. Every test's timeout is
# multiplied (TW_TEST_TIMEOUT_SCALE: 3 under asan, 5 under tsan); the tests run with
# OMP_NUM_THREADS=1 as everywhere (cmake/TwTest.cmake), so LibTorch's uninstrumented OpenMP pool
# stays out of TSan's view.
#
#   packaging/sanitize.sh                 # ASan + UBSan, everything
#   packaging/sanitize.sh tsan            # ThreadSanitizer, the threaded parts
#   packaging/sanitize.sh asan -L unit    # one label
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
case "${1:-}" in -h|--help) sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
preset=${1:-asan}
shift || true
case "$preset" in
  asan) build=build-asan tools="asan" ;;
  tsan) build=build-tsan tools="tsan" ;;
  *) echo "sanitize.sh: unknown sanitizer '$preset' (asan or tsan)" >&2; exit 2 ;;
esac
"$root/packaging/install-deps.sh"
"$root/packaging/install-test-tools.sh"

start=$(date +%s)
[ -f "$build/CMakeCache.txt" ] || cmake --preset "$preset" >/dev/null
if [ "$preset" = tsan ]; then
  # Only the programs the tsan test preset runs, and the CLI and worker they start.
  mapfile -t targets < <(cd "$build" && ctest -N -L threads | awk '/Test +#/{print $3}')
  cmake --build "$build" -j "${TW_JOBS:-$(nproc)}" --target torchwright torchwright-worker "${targets[@]}"
else
  cmake --build "$build" -j "${TW_JOBS:-$(nproc)}"
fi
built=$(date +%s)
# The export and import tests look for ONNX Runtime in their own build tree.
[ -e "$build/onnxruntime" ] || ln -s "$root/build/onnxruntime" "$build/onnxruntime"

logs=$build/sanitizer-logs
rm -rf "$logs" && mkdir -p "$logs"
set +e
ctest --preset "$preset" -j "${TW_TEST_JOBS:-1}" "$@" 2>&1 | tee "$build/sanitize-ctest.log"
ctest_rc=${PIPESTATUS[0]}
set -e
finished=$(date +%s)

# Reports by tool, and where the first of each came from.
declare -A reports
total=0
for tool in $tools; do
  n=$(find "$logs" -name "$tool.*" -size +0 | wc -l)
  reports[$tool]=$n
  total=$((total + n))
done
if [ "$total" -gt 0 ]; then
  echo "sanitizer reports:"
  for f in $(find "$logs" -size +0 -type f | sort); do
    echo "--- $f"
    grep -m1 -E "ERROR: (Address|Leak|Thread)Sanitizer|runtime error:|WARNING: ThreadSanitizer" "$f" || head -3 "$f"
  done
fi
ubsan=$(grep -c "runtime error:" "$build/sanitize-ctest.log" || true)
if [ "$preset" = asan ]; then
  reports[ubsan]=$ubsan
  total=$((total + ubsan))
  tools="$tools ubsan"
  [ "$ubsan" -eq 0 ] || grep "runtime error:" "$build/sanitize-ctest.log" | sort | uniq -c
fi
passed=$(grep -oE '[0-9]+% tests passed, [0-9]+ tests failed out of [0-9]+' "$build/sanitize-ctest.log" | tail -1 || true)
failed=$(echo "$passed" | awk '{print $4}')
ran=$(echo "$passed" | awk '{print $NF}')
status=ok
[ "$ctest_rc" -eq 0 ] && [ "$total" -eq 0 ] || status=FAILED
counts=""
for tool in $tools; do counts="$counts \"$tool\":${reports[$tool]},"; done
echo "sanitize $preset: $status, ${ran:-0} tests, ${failed:-?} failed, $total sanitizer reports;" \
     "build $((built - start)) s, tests $((finished - built)) s"
echo "{\"sanitizer\":\"$preset\",\"status\":\"$status\",\"tests\":${ran:-0},\"failed\":${failed:-null},${counts} \"build_seconds\":$((built - start)),\"test_seconds\":$((finished - built))}"
[ "$status" = ok ]
