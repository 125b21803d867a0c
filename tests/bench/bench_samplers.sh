#!/bin/sh
# Sampler quality side by side: our catalog's samplers (bench_samplers, through Study ask/tell)
# against Optuna 3.1's TPE (independent, multivariate, multivariate with group), CMA-ES and random
# (bench_samplers_optuna.py), on Branin, Hartmann-6, the mixed space, Styblinski-Tang 5-D,
# Rosenbrock 4-D and the conditional network design, with ratios (bench_samplers_compare.py).
#
#   tests/bench/bench_samplers.sh [SEEDS]        # default 10 seeds, 50 trials
#   BUILD=build-debug tests/bench/bench_samplers.sh 3
#   SAMPLERS="tpe tpe:multivariate=false tpe:group=false" tests/bench/bench_samplers.sh 200   # the TPEs only
#   PROBLEMS=network,rosenbrock4 CHECK=1 tests/bench/bench_samplers.sh 200
#
# Labels mean what they mean in our catalog on both sides ("tpe" is our default TPE; the Optuna
# side reads our defaults from bench_samplers' output). A ratio below 1 means our median best
# regret is smaller (better) than Optuna's. "vs best TPE" compares with Optuna's best TPE model on
# that problem in the same run, and "p(worse)" is a one-sided Mann-Whitney test over the seeds'
# final regrets against it: small means ours is worse by more than seed-to-seed noise explains.
# CHECK=1 fails (exit 1) when our default sampler is worse than Optuna's best TPE at the 1% level
# on some problem.
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$ROOT/build}
SEEDS=${1:-10}
OURS=$(mktemp)
THEIRS=$(mktemp)
trap 'rm -f "$OURS" "$THEIRS"' EXIT

cmake --build "$BUILD" --target bench_samplers >/dev/null
SAMPLERS=${SAMPLERS:-}
PROBLEMS=${PROBLEMS:-}
# shellcheck disable=SC2086 # one argument per sampler
"$BUILD/bin/bench_samplers" --seeds "$SEEDS" ${PROBLEMS:+--problems "$PROBLEMS"} $SAMPLERS | tee "$OURS"
echo
/usr/bin/python3 "$ROOT/tests/bench/bench_samplers_optuna.py" --like "$OURS" | tee "$THEIRS"
echo
/usr/bin/python3 "$ROOT/tests/bench/bench_samplers_compare.py" "$OURS" "$THEIRS" ${CHECK:+--check-default}
