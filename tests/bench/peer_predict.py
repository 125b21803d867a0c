"""The peer of `torchwright predict`: python3-torch's torch.jit.load and inference on the same
exported TorchScript file and the same Fashion-MNIST test images, in batches of 512, writing the
same CSV. Prints one JSON line: rows, inference seconds and rows/s, wall seconds.

  /usr/bin/python3 tests/bench/peer_predict.py MODEL.pt --threads N [--rows 10000] [--out FILE]
"""
import argparse
import gzip
import json
import os
import time

import numpy as np
import torch

IDX = "/usr/share/datasets/fashion-mnist"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("model")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--rows", type=int, default=10000)
    ap.add_argument("--out", default=os.devnull)
    args = ap.parse_args()
    start = time.perf_counter()
    torch.set_num_threads(args.threads)
    model = torch.jit.load(args.model)
    model.eval()
    with gzip.open(os.path.join(IDX, "t10k-images-idx3-ubyte.gz")) as f:
        images = np.frombuffer(f.read(), dtype=np.uint8, offset=16).reshape(-1, 1, 28, 28)[: args.rows]
    with gzip.open(os.path.join(IDX, "t10k-labels-idx1-ubyte.gz")) as f:
        labels = np.frombuffer(f.read(), dtype=np.uint8, offset=8)[: args.rows]
    x = torch.from_numpy(images.astype(np.float32) / 255.0)
    infer = time.perf_counter()
    outs = []
    with torch.no_grad():
        for i in range(0, len(x), 512):
            outs.append(model(x[i:i + 512]))
    infer = time.perf_counter() - infer
    probs = torch.softmax(torch.cat(outs), 1).numpy()
    predicted = probs.argmax(1)
    with open(args.out, "w") as f:
        f.write("row,predicted,label," + ",".join(f"p_{c}" for c in range(probs.shape[1])) + "\n")
        for r in range(len(probs)):
            f.write(f"{r},{predicted[r]},{labels[r]}," + ",".join(f"{p:.6g}" for p in probs[r]) + "\n")
    wall = time.perf_counter() - start
    print(json.dumps({"peer": "predict", "threads": args.threads, "rows": len(x), "inference_s": infer,
                      "rows_per_s": len(x) / infer, "wall_s": wall,
                      "accuracy": float((predicted == labels).mean())}))


if __name__ == "__main__":
    main()
