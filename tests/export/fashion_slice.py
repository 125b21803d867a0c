"""Writes the first N Fashion-MNIST test images as raw pixels in 0..1 (float32, [N, 1, 28, 28])
and their labels (int64) for the ONNX accuracy check: images.bin, labels.bin in FOLDER.

  /usr/bin/python3 tests/export/fashion_slice.py IDX_FOLDER FOLDER N
"""
import gzip
import os
import sys

import numpy as np


def main():
    idx, folder, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
    with gzip.open(os.path.join(idx, "t10k-images-idx3-ubyte.gz")) as f:
        images = np.frombuffer(f.read(), dtype=np.uint8, offset=16).reshape(-1, 1, 28, 28)[:n]
    with gzip.open(os.path.join(idx, "t10k-labels-idx1-ubyte.gz")) as f:
        labels = np.frombuffer(f.read(), dtype=np.uint8, offset=8)[:n]
    (images.astype(np.float32) / 255.0).tofile(os.path.join(folder, "images.bin"))
    labels.astype(np.int64).tofile(os.path.join(folder, "labels.bin"))
    print(len(labels))


if __name__ == "__main__":
    main()
