#!/usr/bin/python3
"""bench_samplers' results beside bench_samplers_optuna.py's, with ratios and a test of noise.

  /usr/bin/python3 tests/bench/bench_samplers_compare.py OURS THEIRS [THEIRS ...] [--check-default]

OURS and THEIRS are the two programs' outputs (their last JSON line counts); several THEIRS files
are merged, so Optuna's side may be run in pieces. A TPE row is paired with Optuna's TPE fitting
the same model (independent, multivariate, multivariate+group), whatever the labels say; other
samplers by label. Per problem it prints our median best regret after 10, 25 and 50 trials,
Optuna's for the same sampler and model, their ratio and p(same): a one-sided Mann-Whitney test
over the seeds' final regrets, small when ours is worse than Optuna's same sampler by more than
seed-to-seed noise explains; then the ratio against Optuna's best TPE on that problem (the model
with the smallest median after 50 trials in the files given) and p(best), the same test against
it. Our default sampler's row is marked with *.

--check-default exits 1 when our default sampler is worse than Optuna's TPE fitting the same model
at the 1% level (p(same) < 0.01) on some problem, naming it: the check that our TPE performs as
Optuna's does. Against Optuna's best TPE mode the default can lose where another mode suits the
problem better (Branin and the network design favour the independent TPE on both sides); the
ratio and p(best) say by how much. With few seeds the test can rarely say anything.
"""
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


def pairing_key(result):
    """('tpe', 'multivariate') for a TPE run, (label,) for the others."""
    name = result["sampler"].partition(":")[0]
    return (name, result["model"]) if result.get("model") else (result["sampler"],)


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    check = "--check-default" in sys.argv[1:]
    if len(args) < 2:
        sys.exit(__doc__)
    ours = last_json(args[0])
    theirs = [last_json(path) for path in args[1:]]
    default = ours.get("default_sampler")
    peer = {}
    for data in theirs:
        for r in data["results"]:
            peer[(r["problem"], pairing_key(r))] = r
    med = lambda r, at: r["regret"][at][1] if r and at in r["regret"] else None
    cell = lambda v: f"{v:.4g}" if v is not None else "-"
    ratio = lambda a, b: f"{a / b:.2f}" if a is not None and b else "-"
    seeds = sorted({d["seeds"] for d in theirs})
    print(f"median best regret, {ours['seeds']} seeds (ours) / {'+'.join(map(str, seeds))} seeds "
          f"(Optuna {theirs[0].get('version', '')}); * our default")
    header = ("problem", "sampler", "model", "ours@10", "ours@25", "ours@50", "optuna@50", "ratio@50", "p(same)",
              "best TPE", "vs best", "p(best)")
    row_format = "%-11s %-26s %-18s %8s %8s %8s %9s %8s %7s %18s %7s %7s"
    print(row_format % header)
    worse = []
    for problem in dict.fromkeys(r["problem"] for r in ours["results"]):
        tpes = [r for (p, key), r in peer.items() if p == problem and key[0] == "tpe"]
        best = min(tpes, key=lambda r: med(r, "50")) if tpes else None
        for r in (r for r in ours["results"] if r["problem"] == problem):
            same = peer.get((problem, pairing_key(r)))
            p_same = p_worse(r.get("final"), same.get("final")) if same else None
            p_best = p_worse(r.get("final"), best.get("final")) if best else None
            is_default = r["sampler"] == default
            if is_default and check and p_same is not None and p_same < 0.01:
                worse.append(f"{problem}: our default {default} {cell(med(r, '50'))} against Optuna's "
                             f"{r.get('model') or r['sampler']} {cell(med(same, '50'))} (p = {p_same:.3g})")
            pct = lambda p: f"{p:.2f}" if p is not None else "-"
            print(row_format % (
                problem, ("* " if is_default else "") + r["sampler"], r.get("model") or "-",
                *(cell(med(r, k)) for k in ("10", "25", "50")), cell(med(same, "50")),
                ratio(med(r, "50"), med(same, "50")), pct(p_same), best["model"] if best else "-",
                ratio(med(r, "50"), med(best, "50")), pct(p_best)))
    print()
    for key, ms in ours.get("overhead_ms", {}).items():
        print(f"ask overhead, ours {key}: {ms:.2f} ms")
    for data in theirs:  # bench_samplers_optuna.py times its independent TPE (TPESampler())
        for key, ms in data.get("overhead_ms", {}).items():
            print(f"ask overhead, Optuna's independent {key}: {ms:.2f} ms")
    if worse:
        print("\nour default is worse than Optuna's TPE of the same model:\n  " + "\n  ".join(worse))
        sys.exit(1)


if __name__ == "__main__":
    main()
