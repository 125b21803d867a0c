"""The input pipeline against PyTorch's: images/s from disk for a folder of JPEGs (default 50,000
of 128x128 in 10 classes, written once by make_jpeg_folder.py), Torchwright's streamed image
folder (`torchwright data bench`: every training image in a shuffled order, batch 128, decoded
and standardised to float batches, no cache), the same images packed into shards (their JPEG bytes, and
decoded to 8-bit pixels with `pack --decoded`), against DataLoader + torchvision ImageFolder
(peer_dataloader.py: ToTensor + Normalize, shuffled, batch 128) at the same worker counts, side by
side in one run. The peer gets its best loader at each count, measured here (PIL, ImageFolder's
default, and torchvision.io's libjpeg-turbo decoder). Both read from the page cache: Torchwright's
bench makes one untimed pass first, and the peers run after it. Prints a table with the ratio and
the time to the first batch, and a JSON line.

  /usr/bin/python3 tests/bench/bench_data_pipeline.py [--count 50000] [--dir /tmp/tw-bench-jpegs] [--repeat 1]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_json import last_json  # noqa: E402
from make_jpeg_folder import make  # noqa: E402

GOAL = 1.5  # images/s against DataLoader at equal workers (the target)
SHARD_GOAL = 2.0  # images/s of a set packed with --decoded against the folder (the target)
ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
CLI = os.path.join(ROOT, "build", "bin", "torchwright")
PEER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "peer_dataloader.py")


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"failed: {' '.join(cmd)}\n{p.stdout}{p.stderr}")
    return p.stdout


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--count", type=int, default=50000)
    ap.add_argument("--dir", default=None)
    ap.add_argument("--repeat", type=int, default=1)
    args = ap.parse_args()
    cores = os.cpu_count() or 1
    folder = args.dir or f"/tmp/tw-bench-jpegs-{args.count}"
    make(folder, args.count, 128, 10)
    counts = sorted({1, 2, cores})
    with tempfile.TemporaryDirectory() as tmp:
        run_file = os.path.join(tmp, "folder.run.yaml")
        with open(run_file, "w") as f:
            f.write("model:\n  nodes:\n    - {id: x, op: Input, shape: [3, 128, 128]}\n    - {id: f, op: Flatten}\n"
                    "    - {id: out, op: Linear, out_features: 10}\n"
                    f"data: {{dataset: image-folder, path: {folder}, batch_size: 128}}\n")
        ours = {w: [] for w in counts}
        first = {w: [] for w in counts}
        mean = std = None
        for _ in range(args.repeat):
            out = json.loads(run([CLI, "data", "bench", run_file, "--workers", ",".join(map(str, counts)), "--json"]))
            for p in out["passes"]:
                ours[p["workers"]].append(p["examples_per_s"])
                first[p["workers"]].append(p["first_batch_s"])
        # The same images packed into shards (once, beside the folder): the streamed shard store.
        shard_dir = folder.rstrip("/") + "-shards"
        if not os.path.exists(os.path.join(shard_dir, "manifest.json")):
            run([CLI, "pack", folder, shard_dir])
        shard_run = os.path.join(tmp, "shards.run.yaml")
        with open(shard_run, "w") as f:
            f.write(open(run_file).read().replace(f"dataset: image-folder, path: {folder}",
                                                  f"dataset: shards, path: {shard_dir}"))
        shard_rate = {w: [] for w in counts}
        for _ in range(args.repeat):
            out = json.loads(run([CLI, "data", "bench", shard_run, "--workers", ",".join(map(str, counts)), "--json"]))
            for p in out["passes"]:
                shard_rate[p["workers"]].append(p["examples_per_s"])
        # And packed decoded (`pack --decoded`): 8-bit pixels, nothing to decode when read.
        decoded_dir = folder.rstrip("/") + "-decoded"
        if not os.path.exists(os.path.join(decoded_dir, "manifest.json")):
            run([CLI, "pack", folder, decoded_dir, "--decoded"])
        decoded_run = os.path.join(tmp, "decoded.run.yaml")
        with open(decoded_run, "w") as f:
            f.write(open(shard_run).read().replace(shard_dir, decoded_dir))
        decoded_rate = {w: [] for w in counts}
        decoded_first = {w: [] for w in counts}
        for _ in range(args.repeat):
            out = json.loads(run([CLI, "data", "bench", decoded_run, "--workers", ",".join(map(str, counts)), "--json"]))
            for p in out["passes"]:
                decoded_rate[p["workers"]].append(p["examples_per_s"])
                decoded_first[p["workers"]].append(p["first_batch_s"])
        peers = {w: {} for w in counts}
        peer_first = {w: {} for w in counts}
        for _ in range(args.repeat):
            for w in counts:
                for loader in ("pil", "tvio"):
                    r = last_json(run(["/usr/bin/python3", PEER, folder, "--workers", str(w), "--loader", loader]),
                                  "peer", "dataloader")
                    peers[w].setdefault(loader, []).append(r["images_per_s"])
                    peer_first[w].setdefault(loader, []).append(r["first_batch_s"])
    print(f"{args.count} JPEGs 128x128, 10 classes, batch 128, normalised float batches, one epoch from the page cache")
    print(f"{'workers':>8} {'torchwright img/s':>18} {'DataLoader img/s':>17} {'best loader':>12} {'ratio':>7}"
          f" {'1st batch tw':>13} {'1st batch peer':>15}")
    rows = []
    for w in counts:
        tw = statistics.median(ours[w])
        loader = max(peers[w], key=lambda k: statistics.median(peers[w][k]))
        peer = statistics.median(peers[w][loader])
        rows.append({"workers": w, "torchwright_images_per_s": tw, "dataloader_images_per_s": peer,
                     "peer_loader": loader, "ratio": tw / peer, "torchwright_first_batch_s": statistics.median(first[w]),
                     "dataloader_first_batch_s": statistics.median(peer_first[w][loader])})
        print(f"{w:>8} {tw:>18.0f} {peer:>17.0f} {loader:>12} {tw / peer:>6.2f}x"
              f" {rows[-1]['torchwright_first_batch_s']:>11.2f} s {rows[-1]['dataloader_first_batch_s']:>13.2f} s")
    for r in rows:
        r["shards_images_per_s"] = statistics.median(shard_rate[r["workers"]])
        r["decoded_shards_images_per_s"] = statistics.median(decoded_rate[r["workers"]])
        r["decoded_shards_first_batch_s"] = statistics.median(decoded_first[r["workers"]])
        r["decoded_ratio"] = r["decoded_shards_images_per_s"] / r["torchwright_images_per_s"]
        print(f"{r['workers']:>8} workers: packed shards {r['shards_images_per_s']:.0f} img/s, "
              f"{r['shards_images_per_s'] / r['torchwright_images_per_s']:.2f}x the folder; packed decoded "
              f"{r['decoded_shards_images_per_s']:.0f} img/s, {r['decoded_ratio']:.2f}x the folder "
              f"(first batch {r['decoded_shards_first_batch_s']:.2f} s)")
    print(json.dumps({"bench": "data_pipeline", "images": args.count, "cores": cores, "rows": rows}))
    worst = min(r["ratio"] for r in rows)
    print(f"goal: at least {GOAL}x DataLoader at every worker count: {'met' if worst >= GOAL else 'MISSED'} "
          f"(lowest {worst:.2f}x)")
    packed = min(r["decoded_ratio"] for r in rows)
    print(f"goal: packed (decoded) shards at least {SHARD_GOAL}x the folder at every worker count: "
          f"{'met' if packed >= SHARD_GOAL else 'MISSED'} (lowest {packed:.2f}x)")
    if worst < GOAL or packed < SHARD_GOAL:
        sys.exit(1)


if __name__ == "__main__":
    main()
