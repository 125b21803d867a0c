#!/usr/bin/python3
"""Data-parallel throughput on this machine: 2 ranks x 1 thread against 1 rank x 2 threads.

Trains the benchmark MLP (784-256-128-10) and CNN (tests/bench/bench_cnn.model.yaml) on
Fashion-MNIST through the real `torchwright launch`, batch 128 (the global batch: 2 ranks take 64
each), Adam, threads: auto (the launcher gives each of N ranks cores/N threads). Per setting it
prints the training samples/s (the summary's throughput, over all ranks), and for 2 ranks the
share of training time rank 0 spent waiting for the gradient all-reduce (dist/allreduce_share, the
communication the backward pass did not hide). The peer is python3-torch's own
DistributedDataParallel over Gloo with the same 2 ranks x 1 thread (peer_pytorch_ddp.py). Repeats
run interleaved; medians are printed, the ratios (2 ranks / 1 rank; Torchwright / PyTorch DDP) per
model, and one final JSON line {"bench":"distributed",...}.

  /usr/bin/python3 tests/bench/bench_distributed.py [-r 3] [--models mlp,cnn] [--train-limit N]
"""

import argparse
import json
import os
import re
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
THREAD_VARS = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "TORCHWRIGHT_CORES")



def run_file(path, model, epochs, args):
    with open(path, "w") as f:
        # The same model files the other benchmarks train.
        f.write(f"model: {os.path.join(HERE, f'bench_{model}.model.yaml')}\n")
        f.write(f"data: {{dataset: fashion-mnist, batch_size: 128, train_limit: {args.train_limit}, "
                f"val_fraction: 0.1}}\n"
                f"train: {{optimizer: adam, lr: 0.001, epochs: {epochs}, seed: 42, threads: auto}}\n"
                f"tracking: {{experiment: bench}}\n")


def launch(cli, path, nproc, tmp):
    ws = tempfile.mkdtemp(prefix="ws_", dir=tmp)
    env = {k: v for k, v in os.environ.items() if k not in THREAD_VARS}
    cmd = [cli, "launch", path, "--nproc-per-node", str(nproc), "--workspace", ws]
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if p.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed ({p.returncode}):\n{p.stdout}\n{p.stderr}")
    m = re.search(r"throughput\s+([\d,.]+) samples/s", p.stdout)  # grouped: "52,646"
    if not m:
        sys.exit(f"no throughput line in:\n{p.stdout}")
    share = None
    db = sqlite3.connect(f"file:{os.path.join(ws, 'tracking.db')}?mode=ro", uri=True)
    rows = db.execute("SELECT m.value FROM metrics m JOIN metric_keys k ON k.id = m.key_id "
                      "WHERE k.key = 'dist/allreduce_share'").fetchall()
    db.close()
    if rows:
        share = statistics.mean(v for (v,) in rows)
    shutil.rmtree(ws, ignore_errors=True)
    return float(m.group(1).replace(",", "")), share


def pytorch_ddp(model, epochs, args):
    env = {k: v for k, v in os.environ.items() if k not in THREAD_VARS}
    cmd = ["/usr/bin/python3", os.path.join(HERE, "peer_pytorch_ddp.py"), "--model", model, "--nproc", "2",
           "--epochs", str(epochs), "--train-limit", str(args.train_limit)]
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if p.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed ({p.returncode}):\n{p.stderr}")
    return json.loads(p.stdout.strip().splitlines()[-1])["samples_per_sec"]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build-dir", default=os.path.join(REPO, "build"))
    ap.add_argument("-r", "--repeats", type=int, default=3)
    ap.add_argument("--models", default="mlp,cnn")
    ap.add_argument("--mlp-epochs", type=int, default=2)
    ap.add_argument("--cnn-epochs", type=int, default=1)
    ap.add_argument("--train-limit", type=int, default=0)
    ap.add_argument("--no-peer", action="store_true", help="skip python3-torch's DDP")
    args = ap.parse_args()
    cli = os.path.join(args.build_dir, "bin", "torchwright")
    if not os.access(cli, os.X_OK):
        sys.exit(f"{cli} is missing: cmake --build {args.build_dir} --target torchwright torchwright-worker")
    tmp = tempfile.mkdtemp(prefix="bench_distributed_")
    out = {"bench": "distributed", "cpus": os.cpu_count(), "repeats": args.repeats, "models": {}}
    try:
        for model in [m.strip() for m in args.models.split(",") if m.strip()]:
            epochs = args.mlp_epochs if model == "mlp" else args.cnn_epochs
            path = os.path.join(tmp, f"{model}.run.yaml")
            run_file(path, model, epochs, args)
            one, two, shares, peer = [], [], [], []
            for r in range(args.repeats):
                for nproc in ((1, 2) if r % 2 == 0 else (2, 1)):  # adjacent, alternating
                    sps, share = launch(cli, path, nproc, tmp)
                    (one if nproc == 1 else two).append(sps)
                    if nproc == 2 and share is not None:
                        shares.append(share)
                if not args.no_peer:
                    peer.append(pytorch_ddp(model, epochs, args))
                print(f"{model} repeat {r + 1}: 1 rank {one[-1]:.0f}, 2 ranks {two[-1]:.0f}"
                      + (f", python3-torch DDP {peer[-1]:.0f}" if peer else "") + " samples/s", file=sys.stderr)
            entry = {"epochs": epochs, "one_rank_sps": round(statistics.median(one)),
                     "two_ranks_sps": round(statistics.median(two)),
                     "ratio": round(statistics.median(two) / statistics.median(one), 3),
                     "allreduce_share": round(statistics.median(shares), 4) if shares else None,
                     "pytorch_ddp_sps": round(statistics.median(peer)) if peer else None,
                     "vs_pytorch_ddp": round(statistics.median(two) / statistics.median(peer), 3) if peer else None,
                     "runs": {"one": [round(v) for v in one], "two": [round(v) for v in two],
                              "pytorch_ddp": [round(v) for v in peer]}}
            out["models"][model] = entry
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"\nFashion-MNIST, global batch 128, Adam, threads auto, medians of {args.repeats}, {os.cpu_count()} CPUs")
    print(f"{'model':5} {'1 rank x all cores':>20} {'2 ranks x half':>16} {'ratio':>7} {'all-reduce share':>17} "
          f"{'PyTorch DDP x2':>15} {'TW / DDP':>9}")
    for model, e in out["models"].items():
        share = f"{100 * e['allreduce_share']:.1f}%" if e["allreduce_share"] is not None else "-"
        ddp = f"{e['pytorch_ddp_sps']:>15}" if e["pytorch_ddp_sps"] else f"{'-':>15}"
        vs = f"{e['vs_pytorch_ddp']:>9.2f}" if e["vs_pytorch_ddp"] else f"{'-':>9}"
        print(f"{model:5} {e['one_rank_sps']:>20} {e['two_ranks_sps']:>16} {e['ratio']:>7.2f} {share:>17} {ddp} {vs}")
    print(json.dumps(out, separators=(",", ":")))


if __name__ == "__main__":
    main()
