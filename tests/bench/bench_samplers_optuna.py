#!/usr/bin/python3
"""Optuna 3.1's samplers on the problems of bench_samplers.cpp, with the same measurement.

  /usr/bin/python3 tests/bench/bench_samplers_optuna.py [--seeds 10] [--first-seed 1] [--trials 50]
                   [--problems branin,hartmann6,...] [--samplers tpe tpe:multivariate=true cmaes random]
                   [--like OURS.json] [--overhead 1000] [--no-overhead]

Prints the median and quartiles of the best regret after 10, 25 and 50 trials per sampler and
problem, Optuna's TPE milliseconds per ask at --overhead completed trials, and one JSON line
shaped like bench_samplers' (labels match ours, so bench_samplers.sh can pair them).

A TPE label's multivariate and group options take Optuna's defaults (both false) when missing,
unless --like names bench_samplers' JSON output: then they take our catalog's defaults, and the
seeds, trials, problems and the samplers this script has (TPE, CMA-ES, random) are the ones that run
measured, so "tpe" means the same sampler on both sides. group counts only with multivariate, as in
our sampler (Optuna refuses group without multivariate). Each result names its TPE's model
("independent", "multivariate", "multivariate+group").
Use /usr/bin/python3 with Debian's python3-optuna (apt-get install python3-optuna).
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


def styblinski5(trial):
    x = [trial.suggest_float(f"x{j}", -5, 5) for j in range(5)]
    return 0.5 * sum(v ** 4 - 16 * v * v + 5 * v for v in x)


def rosenbrock4(trial):
    x = [trial.suggest_float(f"x{j}", -2.048, 2.048) for j in range(4)]
    return sum(100 * (x[j + 1] - x[j] ** 2) ** 2 + (1 - x[j]) ** 2 for j in range(3))


ARCHS = ["mlp", "cnn", "transformer"]
BASE, LR_AT_64 = [0.15, 0.0, 0.05], [-2.5, -3.0, -3.5]
KERNELS, KERNEL_COST = ["3", "5", "7"], [0.0, 0.05, 0.1]
HEADS, HEADS_COST = ["1", "2", "4", "8"], [0.1, 0.05, 0.0, 0.02]


def network(trial):
    """bench_samplers.cpp's network(): `arch` decides which parameters exist."""
    arch = ARCHS.index(trial.suggest_categorical("arch", ARCHS))
    lr = trial.suggest_float("lr", 1e-5, 1, log=True)
    batch = trial.suggest_int("batch", 8, 1024, log=True)
    best_lr = LR_AT_64[arch] + 0.5 * math.log10(batch / 64)
    f = BASE[arch] + 0.5 * (math.log10(lr) - best_lr) ** 2 + 0.02 * (math.log2(batch) - 6) ** 2
    if arch == 0:
        width = math.log2(trial.suggest_int("mlp_width", 16, 2048, log=True))
        dropout = trial.suggest_float("mlp_dropout", 0, 0.8)
        f += 0.3 * ((width - 9) / 3) ** 2 + 2 * (dropout - (0.1 + 0.05 * (width - 4))) ** 2
    elif arch == 1:
        channels = trial.suggest_int("cnn_channels", 8, 256, step=8)
        kernel = KERNELS.index(trial.suggest_categorical("cnn_kernel", KERNELS))
        depth = trial.suggest_int("cnn_depth", 1, 8)
        f += 0.05 * (depth - 5) ** 2 + 0.3 * ((math.log2(channels) - (4 + 0.4 * depth)) / 2) ** 2 + KERNEL_COST[kernel]
    else:
        heads = HEADS.index(trial.suggest_categorical("tf_heads", HEADS))
        warmup = trial.suggest_float("tf_warmup", 1, 1e4, log=True)
        wd = trial.suggest_float("tf_wd", 1e-6, 0.1, log=True)
        f += HEADS_COST[heads] + 0.1 * (math.log10(warmup) - 3) ** 2 + 0.1 * ((math.log10(wd) + 4) / 2) ** 2
    return f


PROBLEMS = {"branin": (branin, 0.397887357729739), "hartmann6": (hartmann6, -3.32236801141551), "mixed": (mixed, 0.0),
            "styblinski5": (styblinski5, -39.16616570377142 * 5), "rosenbrock4": (rosenbrock4, 0.0),
            "network": (network, 0.0)}
CONDITIONAL = {"network"}  # the problems with parameters that only some trials have
OPTUNA_DEFAULTS = {"tpe": {"multivariate": "false", "group": "false"}}


def tpe_model(label, defaults):
    """(multivariate, group) of a TPE label, missing options taken from `defaults`."""
    _, _, rest = label.partition(":")
    options = {**defaults.get("tpe", {}), **dict(item.split("=") for item in rest.split(",") if item)}
    multivariate = options.get("multivariate") == "true"
    return multivariate, multivariate and options.get("group") == "true"


def model_name(label, defaults, problem):
    """Without conditional parameters group's one group is the whole space: the multivariate model."""
    if not label.startswith("tpe"):
        return ""
    multivariate, group = tpe_model(label, defaults)
    return "multivariate+group" if group and problem in CONDITIONAL else "multivariate" if multivariate else "independent"


def make_sampler(label, seed, defaults, problem):
    name = label.partition(":")[0]
    if name == "tpe":
        # group only where it makes a difference: on a space without conditions it is the same model,
        # but Optuna walks the group's parameters in sorted order and so draws other random numbers.
        model = model_name(label, defaults, problem)
        return optuna.samplers.TPESampler(seed=seed, multivariate=model != "independent",
                                          group=model == "multivariate+group")
    if name == "cmaes":
        return optuna.samplers.CmaEsSampler(seed=seed)
    if name == "random":
        return optuna.samplers.RandomSampler(seed=seed)
    raise SystemExit(f"bench_samplers_optuna.py: unknown sampler '{label}'")



def ms_per_ask(completed, asks=20):
    """The independent TPE's ask (TPESampler()) at `completed` finished trials (random ones, as
    bench_samplers measures it)."""
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
    parser.add_argument("--first-seed", type=int, default=1, help="seeds first-seed .. first-seed + seeds - 1")
    parser.add_argument("--trials", type=int, default=50)
    parser.add_argument("--problems", default=",".join(PROBLEMS))
    parser.add_argument("--samplers", nargs="+", default=["tpe", "tpe:multivariate=true",
                                                          "tpe:multivariate=true,group=true", "cmaes", "random"])
    parser.add_argument("--like", metavar="OURS.json", help="bench_samplers' output: its defaults, seeds, trials, "
                        "problems and (those of them this script has) samplers")
    parser.add_argument("--overhead", type=int, default=1000)
    parser.add_argument("--no-overhead", action="store_true")
    args = parser.parse_args()
    defaults = OPTUNA_DEFAULTS
    if args.like:
        with open(args.like) as f:
            ours = json.loads([line for line in f if line.startswith("{")][-1])
        defaults = ours["defaults"]
        args.seeds, args.first_seed, args.trials = ours["seeds"], ours.get("first_seed", 1), ours["trials"]
        args.problems = ",".join(dict.fromkeys(r["problem"] for r in ours["results"]))
        args.samplers = list(dict.fromkeys(r["sampler"] for r in ours["results"]
                                           if r["sampler"].partition(":")[0] in ("tpe", "cmaes", "random")))
        args.no_overhead = args.no_overhead or not ours.get("overhead_ms")
    checkpoints = [c for c in (10, 25, 50) if c <= args.trials]
    if not checkpoints or checkpoints[-1] != args.trials:
        checkpoints.append(args.trials)

    results = []
    print(f"Optuna {optuna.__version__}: best regret over {args.seeds} seeds: median [q1, q3]")
    for problem in args.problems.split(","):
        objective, minimum = PROBLEMS[problem]
        done = set()
        for label in args.samplers:
            model = (label.partition(":")[0], model_name(label, defaults, problem))
            if model[1] and model in done:
                continue  # two labels for one TPE model (with and without group on a space without conditions): run it once
            done.add(model)
            regrets = {c: [] for c in checkpoints}
            start = time.perf_counter()
            for seed in range(args.first_seed, args.first_seed + args.seeds):
                study = optuna.create_study(sampler=make_sampler(label, seed, defaults, problem))
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
            print(f"{problem:<11} {label:<26}" + "".join(f"  {c:<30}" for c in cells) + f"  ({seconds:.1f} s)", flush=True)
            results.append({"problem": problem, "sampler": label, "model": model_name(label, defaults, problem),
                            "seconds": seconds, "regret": row, "final": regrets[checkpoints[-1]]})
    overhead = {}
    if not args.no_overhead:
        ms = ms_per_ask(args.overhead)
        overhead[f"tpe@{args.overhead}"] = ms
        print(f"\nOptuna's independent TPE at {args.overhead} trials: {ms:.2f} ms per ask")
    print(json.dumps({"bench": "samplers", "impl": "optuna", "version": optuna.__version__, "seeds": args.seeds,
                      "first_seed": args.first_seed, "trials": args.trials, "results": results, "overhead_ms": overhead}))


if __name__ == "__main__":
    main()
