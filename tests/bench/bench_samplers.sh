#!/bin/sh
# Sampler quality side by side: our catalog's samplers (bench_samplers, through Study ask/tell)
# against Optuna 3.1's TPE (independent and multivariate), CMA-ES and random
# (bench_samplers_optuna.py), on Branin, Hartmann-6 and the mixed space, with ratios.
#
#   tests/bench/bench_samplers.sh [SEEDS]        # default 10 seeds, 50 trials
#   BUILD=build-debug tests/bench/bench_samplers.sh 3
#   SAMPLERS=tpe,tpe:multivariate=true tests/bench/bench_samplers.sh 200   # the TPEs only
#
# A ratio below 1 means our median best regret is smaller (better) than Optuna's. Beside each ratio
# against Optuna's multivariate TPE, "p(worse)" is a one-sided Mann-Whitney test over the seeds'
# final regrets: small means ours is worse by more than seed-to-seed noise explains.
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$ROOT/build}
SEEDS=${1:-10}
OURS=$(mktemp)
THEIRS=$(mktemp)
trap 'rm -f "$OURS" "$THEIRS"' EXIT

cmake --build "$BUILD" --target bench_samplers >/dev/null
SAMPLERS=${SAMPLERS:-}
if [ -n "$SAMPLERS" ]; then
  # shellcheck disable=SC2086 # one argument per sampler
  "$BUILD/bin/bench_samplers" --seeds "$SEEDS" $(echo "$SAMPLERS" | tr ',' ' ') | tee "$OURS"
  echo
  /usr/bin/python3 "$ROOT/tests/bench/bench_samplers_optuna.py" --seeds "$SEEDS" --samplers "$SAMPLERS" | tee "$THEIRS"
else
  "$BUILD/bin/bench_samplers" --seeds "$SEEDS" | tee "$OURS"
  echo
  /usr/bin/python3 "$ROOT/tests/bench/bench_samplers_optuna.py" --seeds "$SEEDS" | tee "$THEIRS"
fi
echo
/usr/bin/python3 - "$OURS" "$THEIRS" <<'PY'
import json
import math
import sys


def last_json(path):
    with open(path) as f:
        return json.loads([line for line in f if line.startswith("{")][-1])


def p_worse(a, b):
    """One-sided Mann-Whitney U (normal approximation, ties averaged, tie-corrected variance):
    the chance of seeing ranks this high for `a` if a and b came from one distribution."""
    if not a or not b:
        return None
    pooled = sorted((v, side) for side, values in ((0, a), (1, b)) for v in values)
    ranks, ties, i = [0.0] * len(pooled), 0.0, 0
    while i < len(pooled):
        j = i
        while j + 1 < len(pooled) and pooled[j + 1][0] == pooled[i][0]:
            j += 1
        for k in range(i, j + 1):
            ranks[k] = (i + j) / 2 + 1
        ties += (j - i + 1) ** 3 - (j - i + 1)
        i = j + 1
    n1, n2 = len(a), len(b)
    u = sum(r for r, (_, side) in zip(ranks, pooled) if side == 0) - n1 * (n1 + 1) / 2
    n = n1 + n2
    var = n1 * n2 / 12 * ((n + 1) - ties / (n * (n - 1)))
    if var <= 0:
        return 0.5
    z = (u - n1 * n2 / 2) / math.sqrt(var)
    return 0.5 * math.erfc(z / math.sqrt(2))


ours, theirs = last_json(sys.argv[1]), last_json(sys.argv[2])
med = lambda r, at: r["regret"][at][1] if at in r["regret"] else None
index = lambda data: {(r["problem"], r["sampler"]): r for r in data["results"]}
o, t = index(ours), index(theirs)
cell = lambda v: f"{v:.4g}" if v is not None else "-"
ratio = lambda a, b: f"{a / b:.2f}" if a is not None and b else "-"
print(f"median best regret, {ours['seeds']} seeds (ours) / {theirs['seeds']} seeds (Optuna {theirs.get('version', '')})")
header = ("problem", "sampler", "ours@10", "ours@25", "ours@50", "optuna@10", "optuna@25", "optuna@50", "ratio@50",
          "vs mv-TPE@50", "p(worse)")
print("%-10s %-24s %9s %9s %9s %10s %10s %10s %9s %13s %9s" % header)
for problem in dict.fromkeys(p for p, _ in list(o) + list(t)):
    labels = dict.fromkeys([s for p, s in o if p == problem] + [s for p, s in t if p == problem])
    mv = t.get((problem, "tpe:multivariate=true"))
    for label in labels:
        a, b = o.get((problem, label)), t.get((problem, label))
        ours50 = med(a, "50") if a else None
        p = p_worse(a.get("final"), mv.get("final")) if a and mv else None
        print("%-10s %-24s %9s %9s %9s %10s %10s %10s %9s %13s %9s" % (
            problem, label, *(cell(med(a, k)) if a else "-" for k in ("10", "25", "50")),
            *(cell(med(b, k)) if b else "-" for k in ("10", "25", "50")),
            ratio(ours50, med(b, "50") if b else None), ratio(ours50, med(mv, "50") if mv else None),
            f"{p:.2f}" if p is not None else "-"))
print()
for key, ms in ours.get("overhead_ms", {}).items():
    peer = theirs.get("overhead_ms", {}).get(key)
    print(f"ask overhead {key}: ours {ms:.2f} ms" + (f", Optuna {peer:.2f} ms" if peer is not None else ""))
PY
