#!/usr/bin/python3
"""Writes the seed corpus under tests/fuzz/corpus/ (run with Debian's /usr/bin/python3, which
has python3-torch, numpy, PIL and yaml). Small valid inputs of every kind each reader takes, so
the fuzzers start from deep inside the formats. The checkpoint and tracking-database seeds come
from the product itself (tests/fuzz/README.md says how)."""

import gzip
import io
import json
import os
import struct
import tarfile

import numpy as np
import torch
import yaml
from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
EXAMPLES = os.path.join(ROOT, "resources", "examples")
FASHION = "/usr/share/datasets/fashion-mnist"


def put(harness, name, data):
    folder = os.path.join(HERE, "corpus", harness)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


def models():
    for name in sorted(os.listdir(EXAMPLES)):
        if name.endswith(".model.yaml"):
            put("model_yaml", name, open(os.path.join(EXAMPLES, name), "rb").read())
    put("model_yaml", "cycle.model.yaml",
        "name: cycle\nnodes:\n  - {id: x, op: Input, shape: [4]}\n"
        "  - {id: a, op: Linear, out_features: 4, inputs: [b]}\n"
        "  - {id: b, op: ReLU, inputs: [a]}\noutput: b\n")
    put("model_yaml", "nested.model.yaml",
        "name: nested\nblocks:\n  inner:\n    params: {w: 8}\n    inputs: [x]\n    nodes:\n"
        "      - {id: fc, op: Linear, out_features: $w, inputs: [x]}\n    output: fc\n"
        "  outer:\n    inputs: [x]\n    nodes:\n      - {id: i1, block: inner, w: 4, inputs: [x]}\n"
        "      - {id: i2, block: inner, w: 2}\n    output: i2\n"
        "nodes:\n  - {id: x, op: Input, shape: [3, 8, 8]}\n  - {id: c, op: Conv2d, out_channels: 4, kernel_size: 3, padding: 1}\n"
        "  - {id: f, op: Flatten}\n  - {id: o, block: outer}\noutput: o\n")


def inline_run(run_name):
    run = yaml.safe_load(open(os.path.join(EXAMPLES, run_name)))
    model = run.get("model")
    if isinstance(model, str):
        run["model"] = yaml.safe_load(open(os.path.join(EXAMPLES, model)))
    return run


def runs():
    for name in sorted(os.listdir(EXAMPLES)):
        if name.endswith(".run.yaml"):
            run = inline_run(name)
            put("run_yaml", name, yaml.safe_dump(run, sort_keys=False))
    for name in sorted(os.listdir(EXAMPLES)):
        if name.endswith(".sweep.yaml"):
            sweep = yaml.safe_load(open(os.path.join(EXAMPLES, name)))
            sweep["base"] = inline_run(sweep["base"])
            # The harness asks for a base when the first byte is even: '#' (35) is odd, 'b' even.
            put("sweep_yaml", name, yaml.safe_dump(sweep, sort_keys=False))
            put("sweep_yaml", "external-" + name,
                "# external objective\n" + yaml.safe_dump({"objective": {"metric": "score", "direction": "maximize"},
                                                          "space": {"x": {"type": "float", "low": -1, "high": 1},
                                                                    "k": ["a", "b"]},
                                                          "budget": {"trials": 4}}, sort_keys=False))


def idx():
    with gzip.open(os.path.join(FASHION, "t10k-images-idx3-ubyte.gz")) as f:
        f.read(16)
        pixels = f.read(3 * 28 * 28)
    with gzip.open(os.path.join(FASHION, "t10k-labels-idx1-ubyte.gz")) as f:
        f.read(8)
        labels = f.read(3)
    images = struct.pack(">IIII", 0x803, 3, 28, 28) + pixels
    put("idx", "images-idx3-ubyte", images)
    put("idx", "images-idx3-ubyte.gz", gzip.compress(images))
    put("idx", "labels-idx1-ubyte", struct.pack(">II", 0x801, 3) + labels)


def csv():
    put("csv", "iris.csv", "species,sepal_length,sepal_width,c\nsetosa,5.1,3.5,x\nversicolor,7.0,3.2,y\n"
        "virginica,6.3,3.3,x\nsetosa,4.9,,y\n")
    put("csv", "quoted.csv", 'price,"area, m2",c\r\n100.5,"1,200",a\r\n80,NA,b\r\n"90",75,"a"\r\n\x11')
    put("csv", "regression.csv", "y,x1,x2\n1.5,2,3\n2.5,NaN,4\n3.5,?,5\n\x01")


def images():
    rng = np.random.default_rng(0)
    rgb = Image.fromarray(rng.integers(0, 255, (12, 9, 3), dtype=np.uint8))
    for fmt, name in (("PNG", "rgb.png"), ("JPEG", "rgb.jpg"), ("BMP", "rgb.bmp")):
        out = io.BytesIO()
        rgb.save(out, fmt)
        put("image", name, out.getvalue())
    gray = Image.fromarray(rng.integers(0, 255, (7, 5), dtype=np.uint8))
    for fmt, name in (("PNG", "gray.png"), ("JPEG", "gray.jpg")):
        out = io.BytesIO()
        gray.save(out, fmt)
        put("image", name, out.getvalue())
    out = io.BytesIO()
    rgb.convert("RGBA").save(out, "PNG")
    put("image", "rgba.png", out.getvalue())
    out = io.BytesIO()
    rgb.save(out, "JPEG", progressive=True)
    put("image", "progressive.jpg", out.getvalue())


def npy_bytes(array):
    out = io.BytesIO()
    np.save(out, array)
    return out.getvalue()


def npys():
    put("npy", "u8.npy", npy_bytes(np.arange(12, dtype=np.uint8).reshape(3, 4)))
    put("npy", "f4.npy", npy_bytes(np.linspace(0, 1, 5, dtype="<f4")))
    put("npy", "i8.npy", npy_bytes(np.array([[1, -2], [3, 4]], dtype="<i8")))


def shards():
    members = io.BytesIO()
    offsets = []
    with tarfile.open(fileobj=members, mode="w", format=tarfile.USTAR_FORMAT) as tar:
        for i in range(3):
            key = "%09d" % i
            for ext, data in (("npy", npy_bytes(np.array([i, 0.5], dtype="<f4"))), ("cls", str(i % 3).encode())):
                if ext == "npy":
                    offsets.append(members.tell())
                info = tarfile.TarInfo(key + "." + ext)
                info.size = len(data)
                info.mode = 0o644
                tar.addfile(info, io.BytesIO(data))
    put("shard", "array-shard", bytes([3]) + struct.pack("<3Q", *offsets) + members.getvalue())
    manifest = {"format": "torchwright-shards", "version": 1, "kind": "array", "task": "classification",
                "classes": 3, "class_names": ["a", "b", "c"], "feature_shape": [2], "dtype": "float32",
                "splits": {"train": {"examples": 3, "class_counts": [1, 1, 1],
                                     "shards": [{"file": "train-000000.tar", "index": "train-000000.idx",
                                                 "examples": 3, "bytes": 10240, "sha256": "0" * 64}]}}}
    put("shard", "manifest.json", json.dumps(manifest, indent=1))


def state_dicts():
    torch.manual_seed(0)
    net = torch.nn.Sequential(torch.nn.Conv2d(1, 2, 3), torch.nn.BatchNorm2d(2), torch.nn.Flatten(),
                              torch.nn.Linear(2 * 6 * 6, 3))
    out = io.BytesIO()
    torch.save(net.state_dict(), out)
    put("state_dict", "sequential.pt", out.getvalue())
    out = io.BytesIO()
    torch.save({"epoch": 3, "state_dict": torch.nn.Linear(2, 2).state_dict(), "note": "x", "lr": [0.1, 0.01]}, out)
    put("state_dict", "training-checkpoint.pt", out.getvalue())
    out = io.BytesIO()
    torch.save({"half": torch.ones(2, dtype=torch.float16), "long": torch.arange(3),
                "view": torch.arange(6.0).view(2, 3)[:, 1]}, out)
    put("state_dict", "dtypes-and-views.pt", out.getvalue())


def onnx_models():
    torch.manual_seed(0)
    nets = {
        "mlp.onnx": (torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(64, 8), torch.nn.ReLU(),
                                         torch.nn.Linear(8, 3)), torch.randn(1, 1, 8, 8)),
        "cnn.onnx": (torch.nn.Sequential(torch.nn.Conv2d(1, 2, 3, padding=1), torch.nn.BatchNorm2d(2),
                                         torch.nn.ReLU(), torch.nn.MaxPool2d(2), torch.nn.Flatten(),
                                         torch.nn.Linear(2 * 4 * 4, 3)).eval(), torch.randn(1, 1, 8, 8)),
    }
    for name, (net, example) in nets.items():
        out = io.BytesIO()
        torch.onnx.export(net, example, out, opset_version=13, input_names=["x"], output_names=["y"])
        put("onnx_import", name, out.getvalue())


if __name__ == "__main__":
    models()
    runs()
    idx()
    csv()
    images()
    npys()
    shards()
    state_dicts()
    onnx_models()
