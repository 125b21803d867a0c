"""The peer of the input-pipeline benchmark: one epoch of PyTorch's DataLoader over torchvision's
ImageFolder, producing the same normalised float batches Torchwright's pipeline does
(ToTensor + Normalize with one mean and std), shuffled, batch 128. Prints one JSON line:
images/s over the whole epoch (iterator start included) and the time to the first batch.

  /usr/bin/python3 tests/bench/peer_dataloader.py DIR --workers N [--loader pil|tvio] [--mean M --std S]

--loader pil is ImageFolder's default (PIL); tvio decodes with torchvision.io (libjpeg-turbo).
"""
import argparse
import json
import time

import torch
import torchvision
from torchvision import transforms


def tvio_loader(path):
    data = torchvision.io.read_file(path)
    return torchvision.io.decode_image(data, torchvision.io.ImageReadMode.RGB)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--workers", type=int, required=True)
    ap.add_argument("--loader", choices=["pil", "tvio"], default="pil")
    ap.add_argument("--batch", type=int, default=128)
    ap.add_argument("--mean", type=float, default=0.5)
    ap.add_argument("--std", type=float, default=0.25)
    args = ap.parse_args()
    torch.set_num_threads(1)  # the work is in the loader processes
    normalize = transforms.Normalize([args.mean] * 3, [args.std] * 3)
    if args.loader == "pil":
        ds = torchvision.datasets.ImageFolder(args.dir, transform=transforms.Compose([transforms.ToTensor(), normalize]))
    else:
        ds = torchvision.datasets.ImageFolder(
            args.dir, loader=tvio_loader,
            transform=transforms.Compose([transforms.ConvertImageDtype(torch.float32), normalize]))
    g = torch.Generator()
    g.manual_seed(1)
    loader = torch.utils.data.DataLoader(ds, batch_size=args.batch, shuffle=True, num_workers=args.workers, generator=g)
    start = time.perf_counter()
    first = None
    images = 0
    for x, y in loader:
        if first is None:
            first = time.perf_counter() - start
        images += x.shape[0]
    seconds = time.perf_counter() - start
    print(json.dumps({"peer": "dataloader", "loader": args.loader, "workers": args.workers, "images": images,
                      "seconds": seconds, "images_per_s": images / seconds, "first_batch_s": first}))


if __name__ == "__main__":
    main()
