#!/usr/bin/python3
"""The Python peer of Torchwright's trainer: the same models, data and measurement in plain
PyTorch (Debian's python3-torch, the same LibTorch 1.13 that Torchwright links).

Run with /usr/bin/python3 (the interpreter that has torch). Threads: LibTorch's intra-op threads
come from --threads (torch.set_num_threads, before any work); OpenBLAS reads its thread count
from OPENBLAS_NUM_THREADS when the library loads, so the caller sets that in the environment
(tests/bench/bench_vs_pytorch.py does).

    OPENBLAS_NUM_THREADS=2 /usr/bin/python3 tests/bench/peer_pytorch.py --model mlp --threads 1

Measures what Torchwright measures: the data preloaded as one standardised float tensor, a
seeded permutation per epoch, batches gathered with index_select, and per step forward, loss,
loss.item(), backward, optimiser step. Only the batch loop is timed (time.perf_counter), not the
validation pass. Prints one JSON line.
"""

import argparse
import gzip
import json
import os
import resource
import struct
import sys
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

DEFAULT_DATA = "/usr/share/datasets/fashion-mnist"


def read_idx(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        data = f.read()
    zero, dtype, dims = struct.unpack(">HBB", data[:4])
    if zero != 0 or dtype != 0x08:
        raise ValueError(f"{path}: not an unsigned-byte IDX file")
    shape = struct.unpack(">" + "I" * dims, data[4:4 + 4 * dims])
    return np.frombuffer(data, dtype=np.uint8, offset=4 + 4 * dims).reshape(shape)


def idx_file(folder, stem):
    for name in (stem + ".gz", stem):
        path = os.path.join(folder, name)
        if os.path.exists(path):
            return path
    raise FileNotFoundError(f"{stem}[.gz] not in {folder}")


def load_data(folder, train_limit, val_fraction, seed):
    """Training split (after holding out val_fraction), validation and test, standardised with
    the training split's mean and standard deviation, as [N, 1, 28, 28] float32 tensors."""
    images = read_idx(idx_file(folder, "train-images-idx3-ubyte"))
    labels = read_idx(idx_file(folder, "train-labels-idx1-ubyte"))
    test_images = read_idx(idx_file(folder, "t10k-images-idx3-ubyte"))
    test_labels = read_idx(idx_file(folder, "t10k-labels-idx1-ubyte"))
    if train_limit > 0:
        images, labels = images[:train_limit], labels[:train_limit]
    n = len(images)
    n_val = int(round(n * val_fraction))
    order = np.random.default_rng(seed).permutation(n)
    train_idx, val_idx = order[n_val:], order[:n_val]

    def floats(x):
        return torch.from_numpy(x.astype(np.float32) / 255.0).reshape(-1, 1, 28, 28)

    x_train = floats(images[train_idx])
    mean, std = x_train.mean().item(), x_train.std().item()

    def norm(x):
        return ((x - mean) / std).contiguous()

    def targets(y):
        return torch.from_numpy(y.astype(np.int64))

    return ((norm(x_train), targets(labels[train_idx])),
            (norm(floats(images[val_idx])), targets(labels[val_idx])),
            (norm(floats(test_images)), targets(test_labels)))


def build_model(name):
    if name == "mlp":  # 784-256-128-10, no dropout (as bench_vs_pytorch.py gives Torchwright)
        return nn.Sequential(nn.Flatten(), nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 128), nn.ReLU(),
                             nn.Linear(128, 10))
    # tests/bench/bench_cnn.model.yaml
    return nn.Sequential(
        nn.Conv2d(1, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(32, 64, 3, padding=1), nn.BatchNorm2d(64), nn.ReLU(), nn.MaxPool2d(2),
        nn.Flatten(), nn.Linear(3136, 128), nn.ReLU(), nn.Dropout(0.3), nn.Linear(128, 10))


@torch.no_grad()
def evaluate(model, x, y, batch):
    model.eval()
    correct, loss = 0, 0.0
    for start in range(0, len(x), 1024):
        out = model(x[start:start + 1024])
        loss += F.cross_entropy(out, y[start:start + 1024], reduction="sum").item()
        correct += (out.argmax(1) == y[start:start + 1024]).sum().item()
    return loss / max(1, len(x)), correct / max(1, len(x))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", choices=["mlp", "cnn"], default="mlp")
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--batch", type=int, default=128)
    ap.add_argument("--threads", type=int, default=1, help="LibTorch intra-op threads (torch.set_num_threads)")
    ap.add_argument("--train-limit", type=int, default=0, help="use only the first N training images (0 = all)")
    ap.add_argument("--val-fraction", type=float, default=0.1)
    ap.add_argument("--seed", type=int, default=42)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--data", default=DEFAULT_DATA, help="folder with the Fashion-MNIST IDX files")
    ap.add_argument("--channels-last", action="store_true",
                    help="the CNN's weights and batches channels-last, as Torchwright's train.memory_format auto")
    ap.add_argument("--device", default="cpu", help="cpu or cuda: a GPU run keeps the whole data set on the device")
    ap.add_argument("--bf16", action="store_true", help="bf16 autocast (as train.precision bf16)")
    args = ap.parse_args()
    device = torch.device(args.device)

    # Before any tensor work: LibTorch sizes its pool on first use.
    torch.set_num_threads(args.threads)
    torch.set_num_interop_threads(1)
    torch.manual_seed(args.seed)

    (x, y), (x_val, y_val), (x_test, y_test) = load_data(args.data, args.train_limit, args.val_fraction, args.seed)
    x, y = x.to(device), y.to(device)
    model = build_model(args.model).to(device)
    layout = torch.channels_last if args.channels_last and args.model == "cnn" else torch.contiguous_format
    model = model.to(memory_format=layout)
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    n = len(x)
    batches = (n + args.batch - 1) // args.batch  # the last, partial batch is kept, as Torchwright does

    epoch_sps, epoch_seconds, epoch_loss = [], [], []
    total_seconds, total_samples = 0.0, 0
    for epoch in range(1, args.epochs + 1):
        gen = torch.Generator().manual_seed(args.seed * 1000 + epoch)
        perm = torch.randperm(n, generator=gen).to(device)
        model.train()
        loss_sum = 0.0
        start = time.perf_counter()
        for b in range(batches):
            idx = perm[b * args.batch:(b + 1) * args.batch]
            xb, yb = x.index_select(0, idx), y.index_select(0, idx)
            if layout is torch.channels_last:
                xb = xb.to(memory_format=layout)
            opt.zero_grad(set_to_none=True)
            with torch.autocast(device_type=device.type, dtype=torch.bfloat16, enabled=args.bf16):
                loss = F.cross_entropy(model(xb), yb)
            value = loss.item()  # Torchwright reads the loss every step (logging, NaN guard)
            loss.backward()
            opt.step()
            loss_sum += value * len(idx)
        if device.type == "cuda":
            torch.cuda.synchronize()
        seconds = time.perf_counter() - start
        total_seconds += seconds
        total_samples += n
        epoch_sps.append(n / seconds)
        epoch_seconds.append(seconds)
        epoch_loss.append(loss_sum / n)
        val_loss, val_acc = evaluate(model, x_val.to(device), y_val.to(device), args.batch)
        print(f"epoch {epoch}/{args.epochs}  train loss {loss_sum / n:.4f}  val loss {val_loss:.4f}  "
              f"val acc {100 * val_acc:.2f}%  {n / seconds:.0f} samples/s  {seconds:.1f}s", file=sys.stderr)
    test_loss, test_acc = evaluate(model, x_test.to(device), y_test.to(device), args.batch)
    rss_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({
        "peer": "pytorch", "model": args.model, "torch_version": torch.__version__,
        "torch_threads": torch.get_num_threads(), "channels_last": layout is torch.channels_last,
        "blas_threads_env": os.environ.get("OPENBLAS_NUM_THREADS", ""),
        "batch": args.batch, "epochs": args.epochs, "train_samples": n,
        "samples_per_sec": round(total_samples / total_seconds, 1),
        "epoch_sps": [round(v, 1) for v in epoch_sps], "epoch_seconds": [round(v, 3) for v in epoch_seconds],
        "epoch_loss": [round(v, 4) for v in epoch_loss],
        "test_loss": round(test_loss, 4), "test_accuracy": round(test_acc, 4),
        "max_rss_mb": round(rss_kb / 1024.0, 1), "device": args.device, "bf16": args.bf16,
        "gpu_peak_mb": round(torch.cuda.max_memory_allocated() / 2**20, 1) if device.type == "cuda" else 0,
    }), flush=True)


if __name__ == "__main__":
    main()
