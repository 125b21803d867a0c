#!/usr/bin/python3
"""Optuna 3.1's samplers on the problems of bench_samplers.cpp, with the same measurement.

  /usr/bin/python3 tests/bench/bench_samplers_optuna.py [--seeds 10] [--trials 50]
                   [--problems branin,hartmann6,mixed] [--samplers tpe,tpe:multivariate=true,cmaes,random]
                   [--overhead 1000] [--no-overhead]

Prints the median and quartiles of the best regret after 10, 25 and 50 trials per sampler and
problem, Optuna's TPE milliseconds per ask at --overhead completed trials, and one JSON line
shaped like bench_samplers' (labels match ours, so bench_samplers.sh can pair them).
Use /usr/bin/python3: it is the interpreter with Debian's python3-optuna.
"""
import argparse
import json
import math
import time
import warnings

import numpy as np
import optuna

optuna.logging.set_verbosity(optuna.logging.ERROR)
warnings.filterwarnings("ignore")

ALPHA = [1.0, 1.2, 3.0, 3.2]
A = [[10, 3, 17, 3.5, 1.7, 8], [0.05, 10, 17, 0.1, 8, 14], [3, 3.5, 1.7, 10, 17, 8], [17, 8, 0.05, 10, 0.1, 14]]
P = [[1312, 1696, 5569, 124, 8283, 5886], [2329, 4135, 8307, 3736, 1004, 9991],
     [2348, 1451, 3522, 2883, 3047, 6650], [4047, 8828, 8732, 5743, 1091, 381]]
OPTS = ["sgd", "adam", "rmsprop", "adagrad"]
OFF = [0.3, 0.0, 0.1, 0.5]
C = [-1.5, -3.0, -3.5, -2.0]


def branin(trial):
    x1 = trial.suggest_float("x1", -5, 10)
    x2 = trial.suggest_float("x2", 0, 15)
    b, c, t = 5.1 / (4 * math.pi ** 2), 5 / math.pi, 1 / (8 * math.pi)
    return (x2 - b * x1 * x1 + c * x1 - 6) ** 2 + 10 * (1 - t) * math.cos(x1) + 10


def hartmann6(trial):
    x = [trial.suggest_float(f"x{j}", 0, 1) for j in range(6)]
    total = 0.0
    for i in range(4):
        inner = sum(A[i][j] * (x[j] - 1e-4 * P[i][j]) ** 2 for j in range(6))
        total += ALPHA[i] * math.exp(-inner)
    return -total


def mixed(trial):
    opt = OPTS.index(trial.suggest_categorical("opt", OPTS))
    lr = trial.suggest_float("lr", 1e-5, 1, log=True)
    n = trial.suggest_int("n", 1, 100)
    return OFF[opt] + 0.5 * (math.log10(lr) - C[opt]) ** 2 + ((n - 37) / 25) ** 2


PROBLEMS = {"branin": (branin, 0.397887357729739), "hartmann6": (hartmann6, -3.32236801141551), "mixed": (mixed, 0.0)}


def make_sampler(label, seed):
    name, _, rest = label.partition(":")
    options = dict(item.split("=") for item in rest.split(",") if item)
    if name == "tpe":
        return optuna.samplers.TPESampler(seed=seed, multivariate=options.get("multivariate") == "true")
    if name == "cmaes":
        return optuna.samplers.CmaEsSampler(seed=seed)
    if name == "random":
        return optuna.samplers.RandomSampler(seed=seed)
    raise SystemExit(f"bench_samplers_optuna.py: unknown sampler '{label}'")


def ms_per_ask(completed, asks=20):
    """TPE's ask at `completed` finished trials (random ones, as bench_samplers measures it)."""
    rng = np.random.RandomState(1)
    study = optuna.create_study(sampler=optuna.samplers.TPESampler(seed=1))
    dists = {f"x{j}": optuna.distributions.FloatDistribution(0, 1) for j in range(6)}
    for _ in range(completed):
        params = {k: float(rng.uniform()) for k in dists}
        value = hartmann6(optuna.trial.FixedTrial(params))
        study.add_trial(optuna.trial.create_trial(params=params, distributions=dists, value=value))
    start = time.perf_counter()
    for _ in range(asks):
        trial = study.ask()
        study.tell(trial, hartmann6(trial))
    return (time.perf_counter() - start) * 1000 / asks


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--trials", type=int, default=50)
    parser.add_argument("--problems", default="branin,hartmann6,mixed")
    parser.add_argument("--samplers", default="tpe,tpe:multivariate=true,cmaes,random")
    parser.add_argument("--overhead", type=int, default=1000)
    parser.add_argument("--no-overhead", action="store_true")
    args = parser.parse_args()
    checkpoints = [c for c in (10, 25, 50) if c <= args.trials]
    if not checkpoints or checkpoints[-1] != args.trials:
        checkpoints.append(args.trials)

    results = []
    print(f"Optuna {optuna.__version__}: best regret over {args.seeds} seeds: median [q1, q3]")
    for problem in args.problems.split(","):
        objective, minimum = PROBLEMS[problem]
        for label in args.samplers.split(","):
            regrets = {c: [] for c in checkpoints}
            start = time.perf_counter()
            for seed in range(1, args.seeds + 1):
                study = optuna.create_study(sampler=make_sampler(label, seed))
                study.optimize(objective, n_trials=args.trials)
                best = math.inf
                for i, t in enumerate(study.trials, 1):
                    best = min(best, t.value)
                    if i in regrets:
                        regrets[i].append(best - minimum)
            seconds = time.perf_counter() - start
            row = {}
            cells = []
            for c in checkpoints:
                q1, med, q3 = (float(np.percentile(regrets[c], q)) for q in (25, 50, 75))
                row[str(c)] = [q1, med, q3]
                cells.append(f"{med:.4g} [{q1:.3g}, {q3:.3g}]")
            print(f"{problem:<10} {label:<26}" + "".join(f"  {c:<30}" for c in cells) + f"  ({seconds:.1f} s)", flush=True)
            results.append({"problem": problem, "sampler": label, "seconds": seconds, "regret": row,
                            "final": regrets[checkpoints[-1]]})
    overhead = {}
    if not args.no_overhead:
        ms = ms_per_ask(args.overhead)
        overhead[f"tpe@{args.overhead}"] = ms
        print(f"\nOptuna TPE at {args.overhead} trials: {ms:.2f} ms per ask")
    print(json.dumps({"bench": "samplers", "impl": "optuna", "version": optuna.__version__, "seeds": args.seeds,
                      "trials": args.trials, "results": results, "overhead_ms": overhead}))


if __name__ == "__main__":
    main()
