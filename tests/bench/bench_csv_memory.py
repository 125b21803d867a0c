"""Memory of training on CSV tables of growing size, read whole and read a batch at a time: one
epoch of a small MLP trained with the real CLI on generated tables (16 numeric columns and a class
column, about 25, 75 and 250 MB), once with data.memory_mb: 0 (a quarter of this machine's
memory: every table fits and is read whole into floats) and once with data.memory_mb: 16 (every
table is past it: one scan builds a row index, and each batch's rows are parsed from the file).
Prints each run's peak resident memory, the time from the worker's start to its first recorded
step, its training rows/s, its test accuracy, the peak's growth per row and a JSON line.
Streamed, the process holds per row only its label, its place in the split and in the epoch's
order and 1 byte of row index, never its values: the peak grows with the row count, not the
table's width, while the whole-read peak grows with the values. Both runs standardise with the
same statistics of every training row. The tables are written once with NumPy into /tmp and kept for the next run.

  /usr/bin/python3 tests/bench/bench_csv_memory.py [--sizes-mb 25,75,250]
"""
import argparse
import json
import os
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from measured_train import train_measured  # noqa: E402

RUN = """model:
  nodes:
    - {{id: x, op: Input, shape: [16]}}
    - {{id: h, op: Linear, out_features: 32}}
    - {{id: r, op: ReLU}}
    - {{id: out, op: Linear, out_features: 2}}
data: {{dataset: csv, path: {path}, target: label, memory_mb: {memory_mb}, batch_size: 1024}}
train: {{epochs: 1, optimizer: adam, lr: 0.003, threads: 1}}
tracking: {{run_name: {name}}}
"""


def make_table(path, megabytes):
    """Rows of 16 normal values (two decimals) whose class is the sign of a fixed weighted sum."""
    if os.path.exists(path):
        return
    rng = np.random.default_rng(megabytes)
    w = rng.normal(size=16)
    with open(path + ".part", "w") as f:
        f.write(",".join(f"x{j}" for j in range(16)) + ",label\n")
        while f.tell() < megabytes << 20:
            x = np.round(rng.normal(size=(50000, 16)) * 10, 2)
            y = np.where(x @ w > 0, "up", "down")
            f.write("\n".join(",".join(map(str, row)) + "," + label for row, label in zip(x.tolist(), y)) + "\n")
    os.replace(path + ".part", path)


def train(tmp, table, memory_mb, name):
    run_file = os.path.join(tmp, name + ".run.yaml")
    with open(run_file, "w") as f:
        f.write(RUN.format(path=table, memory_mb=memory_mb, name=name))
    r = train_measured(run_file, os.path.join(tmp, "ws-" + name), name)
    db = r.pop("db")
    (samples,) = db.execute(
        "SELECT m.value FROM metrics m JOIN metric_keys k ON k.id = m.key_id "
        "WHERE k.key = 'train/samples_per_sec' ORDER BY m.step DESC LIMIT 1").fetchone()
    (accuracy,) = db.execute(
        "SELECT m.value FROM metrics m JOIN metric_keys k ON k.id = m.key_id "
        "WHERE k.key = 'test/accuracy' ORDER BY m.step DESC LIMIT 1").fetchone()
    r["rows_per_sec"] = samples
    r["test_accuracy"] = accuracy
    return r


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes-mb", default="25,75,250")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes_mb.split(",")]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for mb in sizes:
            table = f"/tmp/tw-bench-table-{mb}mb.csv"
            make_table(table, mb)
            with open(table, "rb") as f:
                table_rows = sum(1 for _ in f) - 1
            for mode, memory_mb in (("whole", 0), ("streamed", 16)):
                r = train(tmp, table, memory_mb, f"{mode}{mb}")
                r.update({"file_mb": mb, "mode": mode, "table_rows": table_rows})
                rows.append(r)
                print(f"{mb:>5} MB table, {mode:>8}: peak {r['peak_mb']:6.0f} MB, first step after "
                      f"{r['first_step_s']:5.2f} s, {r['rows_per_sec']:8.0f} rows/s, test accuracy "
                      f"{r['test_accuracy']:.4f}", flush=True)
    def growth(mode):
        """The peak's growth per table row, smallest table to largest, in bytes."""
        runs = [r for r in rows if r["mode"] == mode]
        first, last = runs[0], runs[-1]
        return (last["peak_mb"] - first["peak_mb"]) * (1 << 20) / max(1, last["table_rows"] - first["table_rows"])

    streamed, whole = growth("streamed"), growth("whole")
    print(f"peak growth per row: streamed {streamed:.0f} bytes, read whole {whole:.0f} bytes "
          f"({whole / max(streamed, 1e-9):.1f}x)")
    print(json.dumps({"bench": "csv_memory", "rows": rows}))
    # The goals: streamed, memory grows with the row count alone (labels, split rows, the epoch's
    # order and the 1-byte index: at most 48 bytes a row, whatever the row's width), at most a third
    # of what reading the table whole costs a row; both runs train bit-identical, so the same accuracy.
    gap = max(abs(a["test_accuracy"] - b["test_accuracy"]) for a, b in
              zip([r for r in rows if r["mode"] == "whole"], [r for r in rows if r["mode"] == "streamed"]))
    met = streamed <= 48 and streamed * 3 <= whole and gap == 0
    print(f"goals: streamed growth <= 48 bytes a row ({streamed:.0f}), <= 1/3 of read whole ({whole:.0f}), "
          f"the same accuracy (differs by {gap * 100:.3f} points): {'met' if met else 'MISSED'}")
    if not met:
        sys.exit(1)


if __name__ == "__main__":
    main()
