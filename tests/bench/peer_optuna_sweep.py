#!/usr/bin/python3
"""The Optuna side of bench_sweep_vs_optuna.py: the same search as `torchwright sweep` runs there,
by Debian's python3-optuna (3.1) with python3-torch training the example MLP
(resources/examples/fashion_mlp.model.yaml) in this process.

    OPENBLAS_NUM_THREADS=2 /usr/bin/python3 tests/bench/peer_optuna_sweep.py --n-jobs 1 --threads 1

The search: lr log-uniform in [1e-4, 0.1], batch size log-int in [32, 512], the first hidden
layer's width in [32, 512] step 32 and its dropout in [0, 0.5]; TPESampler(seed), MedianPruner()
(Optuna's defaults: 5 startup trials, no warm-up), val accuracy reported each epoch with
trial.report / trial.should_prune, the last epoch's val accuracy the trial's value (as a sweep
takes a run's latest val/accuracy). Training as the Torchwright run file does it: Adam, a cosine
schedule over every step to 0, the model seeded with train.seed before it is built, a seeded
permutation per epoch, the very batch order Torchwright draws. The data is read once for all trials, as Torchwright reads it: the first
--train-limit images, the same validation images held out (its stratified split, reproduced
here), standardised with the training split's mean and deviation.
Prints one JSON line {"peer": "optuna_sweep", ...}.
"""

import argparse
import json
import math
import os
import sys
import threading
import time

START = time.monotonic()

import numpy as np  # noqa: E402
import optuna  # noqa: E402
import torch  # noqa: E402
import torch.nn as nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from peer_pytorch import DEFAULT_DATA, idx_file, read_idx  # noqa: E402

MASK64 = (1 << 64) - 1


class MT19937_64:
    """std::mt19937_64, whose output the C++ standard fixes: the generator of Torchwright's splits."""

    def __init__(self, seed):
        self.mt = [seed & MASK64]
        for i in range(1, 312):
            prev = self.mt[-1]
            self.mt.append((6364136223846793005 * (prev ^ (prev >> 62)) + i) & MASK64)
        self.index = 312

    def __call__(self):
        if self.index >= 312:
            mt = self.mt
            for i in range(312):
                x = (mt[i] & 0xFFFFFFFF80000000) | (mt[(i + 1) % 312] & 0x7FFFFFFF)
                y = x >> 1
                if x & 1:
                    y ^= 0xB5026F5AA96619E9
                mt[i] = mt[(i + 156) % 312] ^ y
            self.index = 0
        x = self.mt[self.index]
        self.index += 1
        x ^= (x >> 29) & 0x5555555555555555
        x ^= (x << 17) & 0x71D67FFFEDA60000
        x ^= (x << 37) & 0xFFF7EEE000000000
        x ^= x >> 43
        return x & MASK64


def mix_seed(a, b):
    """core/data/random.cpp mixSeed (splitmix64's finaliser)."""
    z = (a + 0x9E3779B97F4A7C15 * (b + 1)) & MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def torchwright_batch_order(n, seed, epoch):
    """The engine's batch order of one epoch (core/engine/dataset.cpp BatchOrder, core/data/random.cpp
    permutation: Fisher-Yates from the back, plain modulo draws, seeded by mixSeed(mixSeed(train.seed,
    kShuffleStream), epoch)). With the same order, the same initial weights and the same hold-out a
    configuration trains step for step as in Torchwright (up to float rounding), so the two
    searches' accuracies differ by what they tried, not by one side's luckier batch order."""
    rng = MT19937_64(mix_seed(mix_seed(seed, 0x5F1), epoch))
    order = list(range(n))
    for i in range(n - 1, 0, -1):
        j = rng() % (i + 1)
        order[i], order[j] = order[j], order[i]
    return torch.tensor(order, dtype=torch.int64)


def torchwright_val_indices(labels, val_fraction, seed):
    """The validation hold-out Torchwright draws for an IDX data set with train.seed `seed`
    (core/data/splits.cpp stratifiedSplit with the stream kIdxSplitStream): each class's share by
    largest remainders, then each class shuffled in turn (Fisher-Yates from the back, unbiased
    draws) and its first indices held out. The same 1,200 images on both sides, so that the best
    validation accuracies compare."""
    classes = int(labels.max()) + 1
    members = [[i for i in range(len(labels)) if labels[i] == c] for c in range(classes)]
    total = round(len(labels) * val_fraction)
    ideal = [len(m) * val_fraction for m in members]
    share = [min(math.floor(v), len(m)) for v, m in zip(ideal, members)]
    for c in sorted(range(classes), key=lambda c: -(ideal[c] - math.floor(ideal[c]))):  # stable: ties to the lower class
        if sum(share) == total:
            break
        if share[c] < len(members[c]):
            share[c] += 1
    rng = MT19937_64(mix_seed(seed, 0x5B1))
    val = []
    for c, m in enumerate(members):
        for i in range(len(m), 1, -1):  # shuffleIndices: uniformBelow(rng, i) by rejection
            threshold = ((1 << 64) - i) % i
            while True:
                r = rng()
                if r >= threshold:
                    break
            j = r % i
            m[i - 1], m[j] = m[j], m[i - 1]
        val += m[:share[c]]
    return sorted(val)


def load_data(folder, train_limit, val_fraction, seed):
    """As Torchwright reads Fashion-MNIST: the first train_limit training images, its validation
    hold-out, pixels / 255 standardised with the training split's mean and deviation."""
    images = read_idx(idx_file(folder, "train-images-idx3-ubyte"))
    labels = read_idx(idx_file(folder, "train-labels-idx1-ubyte"))
    if train_limit > 0:
        images, labels = images[:train_limit], labels[:train_limit]
    val_idx = np.array(torchwright_val_indices(labels, val_fraction, seed), dtype=np.int64)
    train_mask = np.ones(len(labels), dtype=bool)
    train_mask[val_idx] = False

    def floats(x):
        return torch.from_numpy(x.astype(np.float32) / 255.0).reshape(-1, 1, 28, 28)

    x_train = floats(images[train_mask])
    mean, std = x_train.mean().item(), x_train.std().item()

    def part(x, y):
        return ((floats(x) - mean) / std).contiguous(), torch.from_numpy(y.astype(np.int64))

    return part(images[train_mask], labels[train_mask]), part(images[val_idx], labels[val_idx]), (mean, std)


def build_mlp(width, dropout):
    """fashion_mlp.model.yaml with h1's width and dropout set: 784 -> width -> 128 -> 10, each
    hidden layer Linear + ReLU + Dropout (h2 keeps the block's default p 0.1)."""
    return nn.Sequential(nn.Flatten(),
                         nn.Linear(784, width), nn.ReLU(), nn.Dropout(dropout),
                         nn.Linear(width, 128), nn.ReLU(), nn.Dropout(0.1),
                         nn.Linear(128, 10))


@torch.no_grad()
def accuracy(model, x, y):
    model.eval()
    correct = 0
    for start in range(0, len(x), 1024):
        correct += (model(x[start:start + 1024]).argmax(1) == y[start:start + 1024]).sum().item()
    return correct / max(1, len(x))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--trials", type=int, default=24)
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--n-jobs", type=int, default=1, help="Optuna's n_jobs (trials at once, in threads)")
    ap.add_argument("--threads", type=int, default=1, help="LibTorch intra-op threads (torch.set_num_threads)")
    ap.add_argument("--train-limit", type=int, default=12000)
    ap.add_argument("--val-fraction", type=float, default=0.1)
    ap.add_argument("--seed", type=int, default=1, help="the sampler's seed")
    ap.add_argument("--train-seed", type=int, default=42, help="the model's and the batches' seed (train.seed)")
    ap.add_argument("--data", default=DEFAULT_DATA)
    args = ap.parse_args()

    torch.set_num_threads(args.threads)
    torch.set_num_interop_threads(1)
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    (x, y), (x_val, y_val), (mean, std) = load_data(args.data, args.train_limit, args.val_fraction, args.train_seed)
    n = len(x)
    init_lock = threading.Lock()  # the global RNG seeds the model's initial weights
    orders = {e: torchwright_batch_order(n, args.train_seed, e) for e in range(1, args.epochs + 1)}

    def objective(trial):
        lr = trial.suggest_float("train.lr", 1e-4, 0.1, log=True)
        batch = trial.suggest_int("data.batch_size", 32, 512, log=True)
        width = trial.suggest_int("model.h1.width", 32, 512, step=32)
        dropout = trial.suggest_float("model.h1.p", 0.0, 0.5)
        with init_lock:
            torch.manual_seed(args.train_seed)
            model = build_mlp(width, dropout)
        opt = torch.optim.Adam(model.parameters(), lr=lr)
        batches = (n + batch - 1) // batch
        total = batches * args.epochs
        step, value = 0, 0.0
        for epoch in range(1, args.epochs + 1):
            perm = orders[epoch]
            model.train()
            for b in range(batches):
                for group in opt.param_groups:  # cosine from lr to 0 over every step, as the run's schedule
                    group["lr"] = lr * 0.5 * (1.0 + math.cos(math.pi * step / total))
                idx = perm[b * batch:(b + 1) * batch]
                opt.zero_grad(set_to_none=True)
                loss = F.cross_entropy(model(x.index_select(0, idx)), y.index_select(0, idx))
                if not math.isfinite(loss.item()):  # diverged: Optuna records a NaN value as FAIL
                    return float("nan")
                loss.backward()
                opt.step()
                step += 1
            value = accuracy(model, x_val, y_val)
            trial.report(value, epoch)
            if trial.should_prune():
                raise optuna.TrialPruned()
        return value

    study = optuna.create_study(direction="maximize", sampler=optuna.samplers.TPESampler(seed=args.seed),
                                pruner=optuna.pruners.MedianPruner())
    search_start = time.monotonic()
    study.optimize(objective, n_trials=args.trials, n_jobs=args.n_jobs)
    search_seconds = time.monotonic() - search_start
    states = [t.state for t in study.trials]
    complete = [t for t in study.trials if t.state == optuna.trial.TrialState.COMPLETE]
    best = max(complete, key=lambda t: t.value) if complete else None
    print(json.dumps({
        "peer": "optuna_sweep", "optuna_version": optuna.__version__, "torch_version": torch.__version__,
        "n_jobs": args.n_jobs, "torch_threads": torch.get_num_threads(),
        "blas_threads_env": os.environ.get("OPENBLAS_NUM_THREADS", ""),
        "trials": len(study.trials), "complete": len(complete),
        "pruned": states.count(optuna.trial.TrialState.PRUNED),
        "failed": states.count(optuna.trial.TrialState.FAIL),
        "best_value": best.value if best else None, "best_params": best.params if best else None,
        "search_seconds": round(search_seconds, 2), "process_seconds": round(time.monotonic() - START, 2),
        "train_samples": n, "val_samples": len(x_val),
        "mean": round(mean, 5), "std": round(std, 5)}))


if __name__ == "__main__":
    main()
