"""Studio's data preview on a folder of a million images: the Launch page's reader
(ui/launch/data_preview_readers.h, through tests/ui/bench_preview) lists the folder, counts each
class, reads a sample of headers and decodes the shown images. The folder is 10 classes of
100,000 PNGs each, written once into /tmp as hard links of a few small images per class (a
million directory entries, a few kilobytes of data). Prints the seconds of three previews in a row and a
JSON line; the goal is a preview in under a second once the folder's listing is in the kernel's
cache, as it is when a user has just chosen the folder.

  /usr/bin/python3 tests/bench/bench_preview_folder.py [--per-class 100000] [--dir /tmp/tw-bench-million]
"""
import argparse
import json
import os
import struct
import subprocess
import sys
import zlib

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BENCH = os.path.join(ROOT, "build", "tests", "bench_preview")


def png(size, shade):
    """A gray size x size PNG of one shade, with a lighter square in its middle."""
    rows = b""
    for y in range(size):
        row = bytes(min(255, shade + 80) if size // 4 <= x < 3 * size // 4 and size // 4 <= y < 3 * size // 4
                    else shade for x in range(size))
        rows += b"\0" + row

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 0, 0, 0, 0)) +
            chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def make(folder, per_class, classes=10):
    done = os.path.join(folder, ".complete")
    if os.path.exists(done):
        return
    for c in range(classes):
        d = os.path.join(folder, f"class{c:02d}")
        os.makedirs(d, exist_ok=True)
        image = png(16, 20 * c)
        for i in range(per_class):
            path = os.path.join(d, f"{i:06d}.png")
            if os.path.exists(path):
                continue
            # A file of its own every 50,000 names: ext4 allows 65,000 links to one.
            if i % 50000 == 0:
                with open(path, "wb") as f:
                    f.write(image)
                source = path
            else:
                os.link(source, path)
    open(done, "w").close()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--per-class", type=int, default=100000)
    ap.add_argument("--dir", default=None)
    args = ap.parse_args()
    folder = args.dir or f"/tmp/tw-bench-million-{args.per_class}"
    make(folder, args.per_class)
    p = subprocess.run([BENCH, "image-folder", folder, "3"], capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"bench_preview failed:\n{p.stdout}{p.stderr}")
    print(p.stdout, end="")
    seconds = json.loads(p.stdout.strip().splitlines()[-1])["seconds"]
    images = 10 * args.per_class
    print(json.dumps({"bench": "preview_folder", "images": images, "seconds": seconds}))
    best = min(seconds)
    met = best < 1.0
    print(f"goal: a {images}-image folder previews in under a second: {'met' if met else 'MISSED'} "
          f"(fastest {best:.2f} s, first {seconds[0]:.2f} s)")
    if not met:
        sys.exit(1)


if __name__ == "__main__":
    main()
