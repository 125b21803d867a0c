#!/usr/bin/env bash
# Builds the libFuzzer harnesses (tests/fuzz) with clang-15, AddressSanitizer and UBSan into
# build-fuzz/ and runs each one for SECONDS (default 60; CI's .ci/run uses the default), as many
# at a time as there are cores. Each starts from the seed corpus and every earlier crash
# (tests/fuzz/corpus/<harness>, tests/fuzz/regressions/<harness>) and grows its own corpus in
# build-fuzz/corpus/<harness>, kept between runs. Exits 1 when any harness crashed, naming the
# input; tests/fuzz/README.md says how a crash becomes a regression test.
#
#   packaging/fuzz.sh              # every harness, a minute each
#   packaging/fuzz.sh 3600 csv     # one harness for an hour
#   TW_FUZZ_SEED=1 packaging/fuzz.sh   # the same inputs in the same order every time (CI)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
case "${1:-}" in -h|--help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
seconds=${1:-60}
shift || true
"$root/packaging/install-deps.sh" clang-15

build=build-fuzz
if [ ! -f $build/CMakeCache.txt ]; then
  CC=clang-15 CXX=clang++-15 cmake -S . -B $build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DTW_FUZZ=ON -DTW_BUILD_GUI=OFF -DTW_BUILD_TESTS=OFF >/dev/null
fi
cmake --build $build -j "${TW_JOBS:-$(nproc)}" --target tw_fuzzers

harnesses=("$@")
if [ ${#harnesses[@]} -eq 0 ]; then
  mapfile -t harnesses < <(ls tests/fuzz/corpus)
fi

# One harness: its own corpus folder first (what it adds is kept there), the seeds and the
# regressions read-only after it. Crashes land in build-fuzz/crashes/<harness>/.
run_one() {
  local name=$1 log=$build/logs/$1.log
  mkdir -p "$build/corpus/$name" "$build/crashes/$name" "$build/logs"
  local dirs=("$build/corpus/$name" "tests/fuzz/corpus/$name")
  [ -d "tests/fuzz/regressions/$name" ] && dirs+=("tests/fuzz/regressions/$name")
  if ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=0 UBSAN_OPTIONS=print_stacktrace=1 \
      "$build/fuzz/fuzz_$name" -max_total_time="$seconds" -rss_limit_mb=2048 -malloc_limit_mb=1024 \
      -timeout=10 -print_final_stats=1 ${TW_FUZZ_SEED:+-seed=$TW_FUZZ_SEED} -artifact_prefix="$build/crashes/$name/" "${dirs[@]}" >"$log" 2>&1; then
    local runs cov
    runs=$(grep -m1 -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*' || echo "?")
    echo "fuzz $name: ok, $runs inputs in ${seconds}s, coverage $cov edges"
    echo "{\"fuzz\":\"$name\",\"seconds\":$seconds,\"inputs\":\"$runs\",\"edges\":\"$cov\",\"crashes\":0}"
  else
    echo "fuzz $name: CRASH, see $log; input(s):" $(ls "$build/crashes/$name")
    echo "{\"fuzz\":\"$name\",\"seconds\":$seconds,\"crashes\":1}"
    return 1
  fi
}

jobs=${TW_JOBS:-$(nproc)}
failed=0
pids=()
for name in "${harnesses[@]}"; do
  run_one "$name" & pids+=($!)
  if [ ${#pids[@]} -ge "$jobs" ]; then
    wait "${pids[0]}" || failed=1
    pids=("${pids[@]:1}")
  fi
done
for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
if [ $failed -ne 0 ]; then
  echo "A harness crashed: copy its input into tests/fuzz/regressions/<harness>/, fix the reader, and"
  echo "test_fuzz_regressions replays it from then on (tests/fuzz/README.md)."
  exit 1
fi
