"""The bundled Fashion-MNIST example trained from Debian's IDX files and from the same data packed
into shards (`torchwright pack fashion-mnist`), in one invocation: the shard set streams each
example through its index (one pread each, 8-bit until the batch), the IDX files are read whole.
Prints each run's test accuracy and training samples/s (the runs' own train/samples_per_sec,
averaged over the epochs) and a JSON line. The goals: the same accuracy within 0.3 points (same
seed, same order; test_cli_pack asserts it is exactly the same) and samples/s within 10%.

  /usr/bin/python3 tests/bench/bench_shards_vs_idx.py [--epochs 5] [--repeats 2]
"""
import argparse
import json
import os
import sqlite3
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
CLI = os.path.join(ROOT, "build", "bin", "torchwright")
RUN = os.path.join(ROOT, "resources", "examples", "fashion_mlp.run.yaml")


def cli(*args):
    p = subprocess.run([CLI, *args], capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"torchwright {' '.join(args)} failed:\n{p.stdout}{p.stderr}")
    return p.stdout


def train(ws, name, epochs, extra):
    cli("train", RUN, "--workspace", ws, "--set", f"train.epochs={epochs}", "--set", f"tracking.run_name={name}",
        *sum((["--set", s] for s in extra), []))
    db = sqlite3.connect(os.path.join(ws, "tracking.db"))
    (run_id,) = db.execute("SELECT id FROM runs WHERE name = ?", (name,)).fetchone()

    def values(key):
        return [v for (v,) in db.execute(
            "SELECT m.value FROM metrics m JOIN metric_keys k ON k.id = m.key_id WHERE m.run_id = ? AND k.key = ? "
            "ORDER BY m.step", (run_id, key))]

    speeds = values("train/samples_per_sec")
    return {"test_accuracy": values("test/accuracy")[-1], "samples_per_sec": sum(speeds) / len(speeds)}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--epochs", type=int, default=20, help="the example's own 20 by default")
    ap.add_argument("--repeats", type=int, default=2, help="runs of each, alternating; the faster of each is kept")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        shards = os.path.join(tmp, "fashion-shards")
        cli("pack", "fashion-mnist", shards)
        ws = os.path.join(tmp, "ws")
        results = {"idx": [], "shards": []}
        for r in range(args.repeats):
            results["idx"].append(train(ws, f"idx-{r}", args.epochs, []))
            results["shards"].append(train(ws, f"shards-{r}", args.epochs,
                                           ["data.dataset=shards", f"data.path={shards}"]))
    best = {k: max(v, key=lambda x: x["samples_per_sec"]) for k, v in results.items()}
    for kind in ("idx", "shards"):
        b = best[kind]
        print(f"{kind:>6}: test accuracy {100 * b['test_accuracy']:.2f}%, {b['samples_per_sec']:8.0f} samples/s "
              f"(best of {args.repeats})")
    ratio = best["shards"]["samples_per_sec"] / best["idx"]["samples_per_sec"]
    gap = abs(best["shards"]["test_accuracy"] - best["idx"]["test_accuracy"]) * 100
    print(f"shards / IDX samples/s = {ratio:.3f}; accuracy difference {gap:.2f} points")
    print(json.dumps({"bench": "shards_vs_idx", "epochs": args.epochs, "runs": results, "ratio": ratio,
                      "accuracy_gap_points": gap}))
    met = gap <= 0.3 and 0.9 <= ratio
    print(f"goals: accuracy within 0.3 points ({gap:.2f}), samples/s within 10% or faster ({ratio:.3f}): "
          f"{'met' if met else 'MISSED'}")
    if not met:
        sys.exit(1)


if __name__ == "__main__":
    main()
