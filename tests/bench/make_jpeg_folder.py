"""Writes an image folder of JPEGs for the input-pipeline benchmarks: `count` images of
`size` x `size` pixels in `classes` class folders, smooth colour fields with noise (JPEG files of
a realistic size, a few KB each), quality 90. Seeded; an existing complete folder is kept.

  /usr/bin/python3 tests/bench/make_jpeg_folder.py DIR [--count 50000] [--size 128] [--classes 10]
"""
import argparse
import os
import sys

import numpy as np
from PIL import Image


def make(root, count, size, classes, seed=1):
    marker = os.path.join(root, f".complete-{count}-{size}-{classes}")
    if os.path.exists(marker):
        return
    rng = np.random.default_rng(seed)
    y, x = np.mgrid[0:size, 0:size] / size
    for c in range(classes):
        os.makedirs(os.path.join(root, f"class{c:02d}"), exist_ok=True)
    for i in range(count):
        c = i % classes
        a, b, p = rng.uniform(1, 6, 3)
        base = np.stack([np.sin(a * x * 6.28 + p + c), np.cos(b * y * 6.28 + c), np.sin((x + y) * (c + 1) * 3.14)], -1)
        pixels = (base * 0.5 + 0.5) * 200 + rng.normal(0, 12, (size, size, 3))
        Image.fromarray(np.clip(pixels, 0, 255).astype(np.uint8)).save(
            os.path.join(root, f"class{c:02d}", f"{i:07d}.jpg"), quality=90)
        if sys.stderr.isatty() and i % 1000 == 0:
            print(f"\rwriting JPEGs: {i}/{count}", end="", file=sys.stderr)
    open(marker, "w").close()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dir")
    ap.add_argument("--count", type=int, default=50000)
    ap.add_argument("--size", type=int, default=128)
    ap.add_argument("--classes", type=int, default=10)
    args = ap.parse_args()
    make(args.dir, args.count, args.size, args.classes)


if __name__ == "__main__":
    main()
