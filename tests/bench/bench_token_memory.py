"""Memory of a language model trained from token files of growing size: one epoch of a small
causal Transformer (data.windows_per_epoch random windows of 129 tokens, the same work at every
size) trained with the real CLI on flat uint16 token files (train.bin) of 50, 150 and 400 MB,
with the same 1 MB val.bin and test.bin beside each, written once with NumPy. Prints the worker's peak resident memory, the time from the worker's start to its
first recorded step (the tracking database's runs.start_ms and the first train/loss row), and a
JSON line. The windows are read with pread, so the peak stays flat: the process holds batches,
never the file, and the kernel's page cache (not counted in the process) keeps what was read.

  /usr/bin/python3 tests/bench/bench_token_memory.py [--sizes-mb 50,150,400] [--windows 6400]
"""
import argparse
import json
import os
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from measured_train import train_measured  # noqa: E402

VOCAB = 512

RUN = """model:
  nodes:
    - {{id: tokens, op: Input, shape: [128], dtype: int64}}
    - {{id: embed, op: Embedding, num_embeddings: {vocab}, embedding_dim: 64}}
    - {{id: position, op: PositionalEmbedding}}
    - {{id: block, op: TransformerEncoderLayer, nhead: 4, dim_feedforward: 128, dropout: 0.0, causal: true}}
    - {{id: next, op: Linear, out_features: {vocab}}}
data: {{dataset: token-file, path: {path}, seq_len: 128, windows_per_epoch: {windows}, batch_size: 64}}
train: {{epochs: 1, optimizer: adamw, lr: 0.003, log_every: 1, monitor: val/loss}}
tracking: {{run_name: {name}}}
"""


def make_tokens(path, megabytes):
    """A token stream with structure: a random sequence of 2,000 fixed 16-token phrases, so that
    within a phrase the next token is predictable. Written in chunks, so this script stays small."""
    if os.path.exists(path) and os.path.getsize(path) == megabytes << 20:
        return
    rng = np.random.default_rng(megabytes)
    phrases = rng.integers(0, VOCAB, (2000, 16)).astype("<u2")
    left = (megabytes << 20) // 2
    with open(path + ".part", "wb") as f:
        while left > 0:
            n = min(1 << 22, left)
            stream = phrases[rng.integers(0, len(phrases), (n + 15) // 16)].reshape(-1)[:n]
            stream.tofile(f)
            left -= n
    os.replace(path + ".part", path)


def train(tmp, token_file, windows, name):
    run_file = os.path.join(tmp, name + ".run.yaml")
    with open(run_file, "w") as f:
        f.write(RUN.format(path=token_file, windows=windows, name=name, vocab=VOCAB))
    r = train_measured(run_file, os.path.join(tmp, "ws-" + name), name)
    (samples,) = r.pop("db").execute(
        "SELECT m.value FROM metrics m JOIN metric_keys k ON k.id = m.key_id "
        "WHERE k.key = 'train/samples_per_sec' ORDER BY m.step DESC LIMIT 1").fetchone()
    r["windows_per_sec"] = samples
    return r


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes-mb", default="50,150,400")
    ap.add_argument("--windows", type=int, default=6400)
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes_mb.split(",")]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for mb in sizes:
            # nanoGPT's layout: train.bin of the size measured, and the same 1 MB val.bin and
            # test.bin beside it, so that evaluation is the same work at every size.
            folder = f"/tmp/tw-bench-tokens-{mb}mb"
            os.makedirs(folder, exist_ok=True)
            make_tokens(os.path.join(folder, "train.bin"), mb)
            for split in ("val.bin", "test.bin"):
                make_tokens(os.path.join(folder, split), 1)
            r = train(tmp, folder, args.windows, f"t{mb}")
            r.update({"file_mb": mb, "tokens": (mb << 20) // 2})
            rows.append(r)
            print(f"{mb:>5} MB of tokens: peak {r['peak_mb']:6.0f} MB, first step after {r['first_step_s']:5.2f} s, "
                  f"{r['windows_per_sec']:6.0f} windows/s, whole run {r['wall_s']:6.1f} s", flush=True)
    peaks = [r["peak_mb"] for r in rows]
    spread = max(peaks) / min(peaks)
    print(f"largest peak / smallest peak = {spread:.2f}")
    print(json.dumps({"bench": "token_memory", "windows": args.windows, "rows": rows}))
    # The goals: the peak is flat within 15% across the sizes, and every run's first step comes
    # within 2 s of the worker's start.
    slowest = max(r["first_step_s"] for r in rows)
    met = spread <= 1.15 and slowest < 2.0
    print(f"goals: peak flat within 15% ({spread:.2f}), first step under 2 s (slowest {slowest:.2f} s): "
          f"{'met' if met else 'MISSED'}")
    if not met:
        sys.exit(1)


if __name__ == "__main__":
    main()
