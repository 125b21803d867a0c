"""Memory and start-up of a streamed image folder as the data grow: one epoch of a small
convolutional network trained with the real CLI on folders of 3,000, 12,000 and 50,000 JPEGs
(128x128, 10 classes, written once by make_jpeg_folder.py), with the default cache and with
data.cache: none. Prints the worker's peak resident memory and the time from the worker's start
to its first recorded step (the tracking database's runs.start_ms and the first train/loss row),
and a JSON line. Streaming keeps the peak flat: the listing, the batches in flight and the cache
(8-bit pixels, within data.memory_mb) grow with the data, not a float copy of every image.

  /usr/bin/python3 tests/bench/bench_data_memory.py [--counts 3000,12000,50000] [--memory-mb 256]
"""
import argparse
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_jpeg_folder import make  # noqa: E402
from measured_train import train_measured  # noqa: E402

RUN = """model:
  nodes:
    - {{id: x, op: Input, shape: [3, 128, 128]}}
    - {{id: c1, op: Conv2d, out_channels: 8, kernel_size: 3, stride: 2, padding: 1}}
    - {{id: r1, op: ReLU}}
    - {{id: p1, op: MaxPool2d, kernel_size: 4}}
    - {{id: f, op: Flatten}}
    - {{id: out, op: Linear, out_features: 10}}
data: {{dataset: image-folder, path: {path}, batch_size: 128, cache: {cache}, memory_mb: {memory}}}
train: {{epochs: 1, lr: 0.001, log_every: 1}}
tracking: {{run_name: {name}}}
"""


def train(tmp, folder, cache, memory, name):
    run_file = os.path.join(tmp, name + ".run.yaml")
    with open(run_file, "w") as f:
        f.write(RUN.format(path=folder, cache=cache, memory=memory, name=name))
    r = train_measured(run_file, os.path.join(tmp, "ws-" + name), name)
    del r["db"]
    return r


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--counts", default="3000,12000,50000")
    ap.add_argument("--memory-mb", type=int, default=256)
    args = ap.parse_args()
    counts = [int(c) for c in args.counts.split(",")]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for count in counts:
            folder = f"/tmp/tw-bench-jpegs-{count}"
            make(folder, count, 128, 10)
            for cache in ("memory", "none"):
                r = train(tmp, folder, cache, args.memory_mb, f"n{count}-{cache}")
                r.update({"images": count, "cache": cache})
                rows.append(r)
                print(f"{count:>7} images, cache {cache:<6}: peak {r['peak_mb']:7.0f} MB, first step after "
                      f"{r['first_step_s']:5.2f} s, whole run {r['wall_s']:6.1f} s", flush=True)
    spread = {}
    for cache in ("memory", "none"):
        peaks = [r["peak_mb"] for r in rows if r["cache"] == cache]
        spread[cache] = max(peaks) / min(peaks)
        print(f"cache {cache}: largest peak / smallest peak = {spread[cache]:.2f}")
    print(json.dumps({"bench": "data_memory", "memory_mb": args.memory_mb, "rows": rows}))
    # The goals: without the cache (which grows to its budget by design) the peak is flat within
    # 15% across the sizes, and every run takes its first step within 2 s.
    slowest = max(r["first_step_s"] for r in rows)
    met = spread["none"] <= 1.15 and slowest < 2.0
    print(f"goals: peak flat within 15% without the cache ({spread['none']:.2f}), first step under 2 s "
          f"(slowest {slowest:.2f} s): {'met' if met else 'MISSED'}")
    if not met:
        sys.exit(1)


if __name__ == "__main__":
    main()
