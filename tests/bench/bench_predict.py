"""Batch inference against python3-torch: `torchwright predict` on an exported TorchScript file
and python3-torch's torch.jit.load + inference (peer_predict.py) on the same file and the same
10,000 Fashion-MNIST test images, side by side in one run. The peer gets its best thread count,
measured here (1 thread and all cores). Prints rows/s of the inference itself and the wall time
of the whole command as a user runs it (process start, load, read, infer, write the CSV), with
ratios, and a JSON line.

  /usr/bin/python3 tests/bench/bench_predict.py [--repeat 3] [--models mlp,cnn]

The models are the examples trained for one epoch on 6,000 images (the weights do not change the
speed) and exported with their standardisation baked in.
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_json import last_json  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
CLI = os.path.join(ROOT, "build", "bin", "torchwright")


def run(cmd):
    start = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"failed: {' '.join(cmd)}\n{p.stdout}{p.stderr}")
    return p.stdout, time.perf_counter() - start


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--models", default="mlp,cnn")
    args = ap.parse_args()
    cores = os.cpu_count() or 1
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        ws = os.path.join(tmp, "ws")
        for model in args.models.split(","):
            run([CLI, "train", os.path.join(ROOT, f"resources/examples/fashion_{model}.run.yaml"), "--set",
                 "train.epochs=1", "--set", "data.train_limit=6000", "--set", "train.warmup_steps=0", "--set",
                 f"tracking.run_name=bench-{model}", "--workspace", ws])
            pt = os.path.join(tmp, f"{model}.pt")
            run([CLI, "export", f"bench-{model}", "--format", "torchscript", "--out", pt, "--workspace", ws])
            ours, walls = [], []
            peers = {t: [] for t in sorted({1, cores})}
            for _ in range(args.repeat):
                out, wall = run([CLI, "predict", pt, "--out", os.path.join(tmp, "tw.csv")])
                m = re.search(r"predicted (\d+) rows .* in ([0-9.]+) s", out)
                ours.append(int(m.group(1)) / float(m.group(2)))
                walls.append(wall)
                for t in peers:
                    text, peer_wall = run(["/usr/bin/python3", os.path.join(ROOT, "tests/bench/peer_predict.py"), pt,
                                           "--threads", str(t), "--out", os.path.join(tmp, "py.csv")])
                    peers[t].append(dict(last_json(text, "peer", "predict"), wall_s=peer_wall))
            best_t = max(peers, key=lambda t: statistics.median(r["rows_per_s"] for r in peers[t]))
            peer_rate = statistics.median(r["rows_per_s"] for r in peers[best_t])
            peer_wall = statistics.median(r["wall_s"] for r in peers[best_t])
            rate, wall = statistics.median(ours), statistics.median(walls)
            print(f"{model}: torchwright predict {rate:,.0f} rows/s (wall {wall:.2f} s); python3-torch "
                  f"torch.jit.load {peer_rate:,.0f} rows/s with {best_t} thread(s) (wall {peer_wall:.2f} s); "
                  f"inference {rate / peer_rate:.2f}x, wall {peer_wall / wall:.2f}x", flush=True)
            results.append({"model": model, "rows_per_s": rate, "wall_s": wall, "peer_rows_per_s": peer_rate,
                            "peer_wall_s": peer_wall, "peer_threads": best_t, "ratio": rate / peer_rate,
                            "wall_ratio": peer_wall / wall})
    print(json.dumps({"bench": "predict", "repeat": args.repeat, "results": results}))


if __name__ == "__main__":
    main()
