#!/usr/bin/python3
"""A hyperparameter search end to end, `torchwright sweep` against Debian's python3-optuna (3.1)
with python3-torch, side by side in one run. Not a CTest test: run on demand, on a quiet machine.

    /usr/bin/python3 tests/bench/bench_sweep_vs_optuna.py                 # 1 repeat of every side
    /usr/bin/python3 tests/bench/bench_sweep_vs_optuna.py -r 2 --build-dir /path/to/build

The search (tests/bench/bench_sweep_mlp.sweep.yaml; its Optuna twin is peer_optuna_sweep.py): the
example MLP on the first 12,000 Fashion-MNIST training images (10% held out for validation),
3 epochs, Adam with a cosine schedule; learning rate, batch size, the first hidden layer's width
and dropout; TPE, the median pruner with Optuna's defaults, 24 trials; repeat r seeds both
samplers with --seed + r (default 1, 2, 3, ...), and the best accuracies are the medians over the
repeats.

Sides, each a whole process timed from start to exit (start-up, data loading and every trial):
  torchwright   `torchwright sweep` with each of --tw-parallel (default auto and 1; auto says
                what it picked), thread variables removed from the environment; the figures are
                read back with `torchwright study show --json`.
  optuna        peer_optuna_sweep.py with each of PY_SETTINGS: n_jobs 1 or 2, with the threads per
                job set so that jobs x threads = 2 (LibTorch threads, OpenBLAS threads).
Each side's best setting (most trials per hour) is compared. Repeats run interleaved, the order
alternating, so a change in machine load hits every side alike. Prints a table, whether the
target is met (at least 1.3x Optuna's trials per hour, best val accuracy no worse by more than
0.3 points) and one final JSON line {"bench": "sweep_vs_optuna", ...}.
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from bench_json import last_json

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
PYTHON = "/usr/bin/python3"  # Debian's interpreter, the one with python3-torch and python3-optuna
SWEEP = os.path.join(HERE, "bench_sweep_mlp.sweep.yaml")
PEER = os.path.join(HERE, "peer_optuna_sweep.py")
THREAD_VARS = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "GOTO_NUM_THREADS",
               "OPENBLAS_MAIN_FREE", "GOMP_CPU_AFFINITY")

# (name, n_jobs, LibTorch threads per job, OpenBLAS threads): jobs x threads = 2 cores. With one
# job both an expert's settings from bench_vs_pytorch.py; with two, one thread of each per job.
PY_SETTINGS = [("jobs1_torch1_blas2", 1, 1, 2), ("jobs1_torch2_blas1", 1, 2, 1), ("jobs2_torch1_blas1", 2, 1, 1)]

TARGET_RATIO = 1.3        # torchwright / optuna, trials per hour
MAX_ACCURACY_LOSS = 0.003  # best val accuracy, torchwright may trail by at most 0.3 points


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def clean_env(extra=None):
    env = {k: v for k, v in os.environ.items() if k not in THREAD_VARS}
    env.update(extra or {})
    return env


def run_timed(cmd, env):
    start = time.monotonic()
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True)
    wall = time.monotonic() - start
    if proc.returncode != 0:
        log(f"\nfailed (exit {proc.returncode}): {' '.join(cmd)}\n--- stdout ---\n{proc.stdout[-3000:]}"
            f"\n--- stderr ---\n{proc.stderr[-3000:]}")
        sys.exit(1)
    return proc.stdout, proc.stderr, wall


class Bench:
    def __init__(self, args):
        self.args = args
        build = os.path.abspath(args.build_dir)
        self.cli = os.path.join(build, "bin", "torchwright")
        for path in (self.cli, os.path.join(build, "bin", "torchwright-worker")):
            if not os.access(path, os.X_OK):
                sys.exit(f"{path} is missing: build it with `cmake --build {build} --target torchwright torchwright-worker`")
        self.tmp = tempfile.mkdtemp(prefix="bench_sweep_vs_optuna_")
        self.count = 0

    def torchwright(self, parallel, seed):
        self.count += 1
        workspace = os.path.join(self.tmp, f"ws{self.count}")
        sets = [f"parallel={parallel}", f"budget.trials={self.args.trials}", f"sampler.seed={seed}"]
        cmd = [self.cli, "sweep", SWEEP, "--workspace", workspace]
        for s in sets:
            cmd += ["--set", s]
        out, err, wall = run_timed(cmd, clean_env())
        plan = next((line for line in (out + err).splitlines() if "at a time" in line), "")
        show, _, _ = run_timed([self.cli, "study", "show", "bench_sweep_mlp", "--json", "--workspace", workspace],
                               clean_env())
        study = json.loads(show)
        states = [t["state"] for t in study["trials"]]
        best = study.get("best") or {}
        return {"wall_s": wall, "trials": len(states), "complete": states.count("COMPLETE"),
                "pruned": states.count("PRUNED"), "failed": states.count("FAILED"),
                "best": best.get("value"), "best_params": best.get("params"), "plan": plan.strip()}

    def optuna(self, setting, seed):
        name, jobs, torch_threads, blas_threads = setting
        cmd = [PYTHON, PEER, "--trials", str(self.args.trials), "--n-jobs", str(jobs), "--threads",
               str(torch_threads), "--seed", str(seed)]
        env = clean_env({"OPENBLAS_NUM_THREADS": str(blas_threads), "OMP_NUM_THREADS": str(torch_threads)})
        out, _, wall = run_timed(cmd, env)
        j = last_json(out, "peer", "optuna_sweep")
        if not j:
            sys.exit(f"peer_optuna_sweep.py printed no JSON line: {out[-2000:]}")
        return {"wall_s": wall, "trials": j["trials"], "complete": j["complete"], "pruned": j["pruned"],
                "failed": j["failed"], "best": j["best_value"], "best_params": j["best_params"],
                "search_s": j["search_seconds"], "versions": f"optuna {j['optuna_version']}, torch {j['torch_version']}"}


def per_hour(run):
    return run["trials"] / run["wall_s"] * 3600.0


def summary(runs):
    """The median over repeats of wall time, trials per hour and the best accuracy a search found.
    Repeat r seeds both sides' samplers with seed + r: the best of 24 trials moves by tenths of a
    point from one seed to the next, so one seed alone cannot tell two searches apart."""
    return {"wall_s": statistics.median(r["wall_s"] for r in runs),
            "trials_per_hour": statistics.median(per_hour(r) for r in runs),
            "best": statistics.median(r["best"] for r in runs if r["best"] is not None),
            "bests": [round(r["best"], 4) for r in runs if r["best"] is not None],
            "trials": runs[-1]["trials"], "complete": runs[-1]["complete"], "pruned": runs[-1]["pruned"],
            "failed": runs[-1]["failed"], "best_params": max(runs, key=lambda r: r["best"] or 0)["best_params"],
            "walls": [round(r["wall_s"], 1) for r in runs]}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build-dir", default=os.path.join(REPO, "build"))
    ap.add_argument("-r", "--repeats", type=int, default=1)
    ap.add_argument("--trials", type=int, default=24)
    ap.add_argument("--seed", type=int, default=1, help="both samplers' seed in the first repeat (then +1 a repeat)")
    ap.add_argument("--tw-parallel", default="auto,1", help="torchwright's parallel settings to try (comma list)")
    ap.add_argument("--peer-settings", default=",".join(p[0] for p in PY_SETTINGS),
                    help="the Optuna settings to run (comma list of PY_SETTINGS names; default all)")
    ap.add_argument("--keep", action="store_true", help="keep the temporary workspaces")
    args = ap.parse_args()
    tw_settings = [p.strip() for p in args.tw_parallel.split(",") if p.strip()]
    wanted = {n.strip() for n in args.peer_settings.split(",") if n.strip()}
    py_settings = [p for p in PY_SETTINGS if p[0] in wanted]
    if not py_settings:
        sys.exit(f"--peer-settings: none of {sorted(wanted)} is one of {[p[0] for p in PY_SETTINGS]}")

    bench = Bench(args)
    tw = {p: [] for p in tw_settings}
    py = {s[0]: [] for s in py_settings}
    plans = {}
    start = time.monotonic()
    try:
        for r in range(args.repeats):
            order = [("tw", p) for p in tw_settings] + [("py", s) for s in py_settings]
            seed = args.seed + r
            for side, setting in (order if r % 2 == 0 else order[::-1]):
                if side == "tw":
                    res = bench.torchwright(setting, seed)
                    tw[setting].append(res)
                    plans[setting] = res["plan"]
                    log(f"repeat {r + 1} (seed {seed}): torchwright parallel {setting}: {res['wall_s']:.1f}s, {res['trials']} trials "
                        f"({res['pruned']} pruned, {res['failed']} failed), best {res['best']:.4f}  [{res['plan']}]")
                else:
                    res = bench.optuna(setting, seed)
                    py[setting[0]].append(res)
                    log(f"repeat {r + 1} (seed {seed}): optuna {setting[0]}: {res['wall_s']:.1f}s (search {res['search_s']:.1f}s), "
                        f"{res['trials']} trials ({res['pruned']} pruned, {res['failed']} failed), best {res['best']:.4f}")
    finally:
        if not args.keep:
            shutil.rmtree(bench.tmp, ignore_errors=True)
    elapsed = time.monotonic() - start

    rows = [(f"torchwright parallel {p}", "tw", p, summary(v)) for p, v in tw.items()] + \
           [(f"optuna {n}", "py", n, summary(v)) for n, v in py.items()]
    print(f"\nSearch end to end: {args.trials} trials of the example MLP, 12,000 Fashion-MNIST images, 3 epochs, "
          f"TPE seeds {args.seed}..{args.seed + args.repeats - 1} + median pruner; {py[py_settings[0][0]][-1]['versions']}; {os.cpu_count()} CPUs; "
          f"medians of {args.repeats} repeat(s)")
    header = (f"{'side':36} {'wall s':>7} {'trials/h':>9} {'complete':>8} {'pruned':>6} {'failed':>6} {'best val acc':>12}"
              f"  per seed")
    print(header)
    print("-" * len(header))
    for label, _, _, s in rows:
        print(f"{label:36} {s['wall_s']:7.1f} {s['trials_per_hour']:9.0f} {s['complete']:8d} {s['pruned']:6d} "
              f"{s['failed']:6d} {100 * s['best']:11.2f}%  {' '.join(f'{100 * b:.2f}' for b in s['bests'])}")
    best_tw = max((r for r in rows if r[1] == "tw"), key=lambda r: r[3]["trials_per_hour"])
    best_py = max((r for r in rows if r[1] == "py"), key=lambda r: r[3]["trials_per_hour"])
    ratio = best_tw[3]["trials_per_hour"] / best_py[3]["trials_per_hour"]
    accuracy_gap = best_tw[3]["best"] - best_py[3]["best"]
    ok = ratio >= TARGET_RATIO and accuracy_gap >= -MAX_ACCURACY_LOSS
    for p, plan in plans.items():
        print(f"torchwright parallel {p}: {plan}")
    print(f"best of each: {best_tw[0]} against {best_py[0]}")
    print(f"trials per hour, torchwright / optuna = {ratio:.2f} (target >= {TARGET_RATIO}); best val accuracy "
          f"{100 * best_tw[3]['best']:.2f}% against {100 * best_py[3]['best']:.2f}% ({100 * accuracy_gap:+.2f} points, "
          f"target >= {-100 * MAX_ACCURACY_LOSS:.1f}): {'MET' if ok else 'NOT MET'}")
    print(json.dumps({
        "bench": "sweep_vs_optuna", "trials": args.trials, "seed": args.seed, "repeats": args.repeats,
        "seconds": round(elapsed, 1),
        "sides": {label: {"wall_s": round(s["wall_s"], 1), "walls": s["walls"],
                          "trials_per_hour": round(s["trials_per_hour"]), "complete": s["complete"],
                          "pruned": s["pruned"], "failed": s["failed"], "best": round(s["best"], 4),
                          "bests": s["bests"],
                          "best_params": s["best_params"]} for label, _, _, s in rows},
        "torchwright": best_tw[0], "optuna": best_py[0], "ratio": round(ratio, 3),
        "accuracy_gap": round(accuracy_gap, 4), "target_ratio": TARGET_RATIO,
        "max_accuracy_loss": MAX_ACCURACY_LOSS, "ok": ok}))


if __name__ == "__main__":
    main()
