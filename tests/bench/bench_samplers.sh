#!/bin/sh
# Sampler quality side by side: our catalog's samplers (bench_samplers, through Study ask/tell)
# against Optuna 3.1's TPE (independent and multivariate), CMA-ES and random
# (bench_samplers_optuna.py), on Branin, Hartmann-6 and the mixed space, with ratios.
#
#   tests/bench/bench_samplers.sh [SEEDS]        # default 10 seeds, 50 trials
#   BUILD=build-debug tests/bench/bench_samplers.sh 3
#
# A ratio below 1 means our median best regret is smaller (better) than Optuna's.
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$ROOT/build}
SEEDS=${1:-10}
OURS=$(mktemp)
THEIRS=$(mktemp)
trap 'rm -f "$OURS" "$THEIRS"' EXIT

cmake --build "$BUILD" --target bench_samplers >/dev/null
"$BUILD/bin/bench_samplers" --seeds "$SEEDS" | tee "$OURS"
echo
/usr/bin/python3 "$ROOT/tests/bench/bench_samplers_optuna.py" --seeds "$SEEDS" | tee "$THEIRS"
echo
/usr/bin/python3 - "$OURS" "$THEIRS" <<'PY'
import json
import sys


def last_json(path):
    with open(path) as f:
        return json.loads([line for line in f if line.startswith("{")][-1])


ours, theirs = last_json(sys.argv[1]), last_json(sys.argv[2])
med = lambda r, at: r["regret"][at][1] if at in r["regret"] else None
index = lambda data: {(r["problem"], r["sampler"]): r for r in data["results"]}
o, t = index(ours), index(theirs)
cell = lambda v: f"{v:.4g}" if v is not None else "-"
ratio = lambda a, b: f"{a / b:.2f}" if a is not None and b else "-"
print(f"median best regret, {ours['seeds']} seeds (ours) / {theirs['seeds']} seeds (Optuna {theirs.get('version', '')})")
header = ("problem", "sampler", "ours@10", "ours@25", "ours@50", "optuna@10", "optuna@25", "optuna@50", "ratio@50",
          "vs mv-TPE@50")
print("%-10s %-24s %9s %9s %9s %10s %10s %10s %9s %13s" % header)
for problem in dict.fromkeys(p for p, _ in list(o) + list(t)):
    labels = dict.fromkeys([s for p, s in o if p == problem] + [s for p, s in t if p == problem])
    mv = t.get((problem, "tpe:multivariate=true"))
    for label in labels:
        a, b = o.get((problem, label)), t.get((problem, label))
        ours50 = med(a, "50") if a else None
        print("%-10s %-24s %9s %9s %9s %10s %10s %10s %9s %13s" % (
            problem, label, *(cell(med(a, k)) if a else "-" for k in ("10", "25", "50")),
            *(cell(med(b, k)) if b else "-" for k in ("10", "25", "50")),
            ratio(ours50, med(b, "50") if b else None), ratio(ours50, med(mv, "50") if mv else None)))
print()
for key, ms in ours.get("overhead_ms", {}).items():
    peer = theirs.get("overhead_ms", {}).get(key)
    print(f"ask overhead {key}: ours {ms:.2f} ms" + (f", Optuna {peer:.2f} ms" if peer is not None else ""))
PY
