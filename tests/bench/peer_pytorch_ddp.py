#!/usr/bin/python3
"""The python3-torch peer of bench_distributed.py: the same model trained by N processes with
torch.nn.parallel.DistributedDataParallel over Gloo on loopback, 1 thread each (LibTorch and
OpenBLAS), global batch split evenly across the ranks, Adam, the loss read every step. Prints one
JSON line from rank 0 with the global training samples/s (training loop only).

  /usr/bin/python3 tests/bench/peer_pytorch_ddp.py --model mlp --nproc 2 [--epochs 2]
"""

import os

# Before torch loads OpenBLAS: one thread per rank, as the Torchwright launcher gives each rank.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import json  # noqa: E402
import socket  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402

import torch  # noqa: E402
import torch.distributed as dist  # noqa: E402
import torch.multiprocessing as mp  # noqa: E402
import torch.nn.functional as F  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from peer_pytorch import DEFAULT_DATA, build_model, load_data  # noqa: E402


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rank_main(rank, args, port):
    torch.set_num_threads(1)
    torch.set_num_interop_threads(1)
    dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{port}", rank=rank, world_size=args.nproc)
    torch.manual_seed(args.seed)
    (x, y), _, _ = load_data(args.data, args.train_limit, 0.1, args.seed)
    model = torch.nn.parallel.DistributedDataParallel(build_model(args.model))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    n = len(x)
    batches = (n + args.batch - 1) // args.batch
    seconds = 0.0
    for epoch in range(1, args.epochs + 1):
        perm = torch.randperm(n, generator=torch.Generator().manual_seed(args.seed * 1000 + epoch))
        model.train()
        dist.barrier()
        start = time.perf_counter()
        for b in range(batches):
            idx = perm[b * args.batch:(b + 1) * args.batch]
            share = idx[rank * len(idx) // args.nproc:(rank + 1) * len(idx) // args.nproc]
            opt.zero_grad(set_to_none=True)
            loss = F.cross_entropy(model(x.index_select(0, share)), y.index_select(0, share))
            loss.item()
            loss.backward()
            opt.step()
        seconds += time.perf_counter() - start
    if rank == 0:
        print(json.dumps({"peer": "pytorch_ddp", "model": args.model, "nproc": args.nproc,
                          "samples_per_sec": round(n * args.epochs / seconds, 1)}), flush=True)
    dist.destroy_process_group()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", choices=["mlp", "cnn"], default="mlp")
    ap.add_argument("--nproc", type=int, default=2)
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--batch", type=int, default=128)
    ap.add_argument("--train-limit", type=int, default=0)
    ap.add_argument("--seed", type=int, default=42)
    ap.add_argument("--data", default=DEFAULT_DATA)
    args = ap.parse_args()
    mp.spawn(rank_main, args=(args, free_port()), nprocs=args.nproc)


if __name__ == "__main__":
    main()
