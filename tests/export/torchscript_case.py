"""Turns one exported TorchScript file into an export-test case for check_onnx.mjs: random raw
inputs (pixels in 0..1) shaped as the file's metadata says, python3-torch's outputs as the
expected ones, and the ONNX file to compare. Prints the metadata's run_id.

  /usr/bin/python3 tests/export/torchscript_case.py FOLDER MODEL.pt MODEL.onnx
"""
import json
import os
import sys

import numpy as np
import torch


def main():
    folder, pt, onnx = sys.argv[1:4]
    extra = {"torchwright.json": ""}
    model = torch.jit.load(pt, _extra_files=extra)
    meta = json.loads(extra["torchwright.json"])
    inputs = []
    for k, spec in enumerate(meta["inputs"]):
        shape = [4] + spec["shape"][1:]
        x = torch.rand(shape, generator=torch.Generator().manual_seed(k))
        x.numpy().astype(np.float32).tofile(os.path.join(folder, f"in{k}.bin"))
        inputs.append({"name": spec["name"], "file": f"in{k}.bin", "dtype": "float32", "shape": shape})
    with torch.no_grad():
        out = model(*[torch.from_numpy(np.fromfile(os.path.join(folder, e["file"]), dtype=np.float32).reshape(e["shape"]))
                      for e in inputs])
    out.numpy().astype(np.float32).tofile(os.path.join(folder, "out.bin"))
    case = {"name": "exported run", "onnx": [os.path.abspath(onnx)], "inputs": inputs, "output": meta["output"],
            "expected": {"file": "out.bin", "dtype": "float32", "shape": list(out.shape)}}
    with open(os.path.join(folder, "cases.json"), "w") as f:
        json.dump({"cases": [case]}, f)
    print(json.dumps({"run_id": meta["run_id"], "preprocessing_baked": meta["preprocessing_baked"],
                      "output_shape": list(out.shape)}))


if __name__ == "__main__":
    main()
