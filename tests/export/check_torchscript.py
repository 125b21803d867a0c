"""Runs every TorchScript file of an export test folder in python3-torch and compares its output
with LibTorch's. Prints one JSON line per case: {"case", "max_diff"} (or "error", also when either
output holds a NaN or an infinity).

  /usr/bin/python3 tests/export/check_torchscript.py FOLDER     # FOLDER/cases.json
"""
import json
import os
import sys

import numpy as np
import torch


def tensor(folder, entry):
    dtype = np.int64 if entry["dtype"] == "int64" else np.float32
    return torch.from_numpy(np.fromfile(os.path.join(folder, entry["file"]), dtype=dtype).reshape(entry["shape"]))


def main():
    folder = sys.argv[1]
    with open(os.path.join(folder, "cases.json")) as f:
        cases = json.load(f)["cases"]
    torch.set_num_threads(1)
    for case in cases:
        try:
            model = torch.jit.load(os.path.join(folder, case["torchscript"]))
            model.eval()
            with torch.no_grad():
                got = model(*[tensor(folder, e) for e in case["inputs"]])
            expected = tensor(folder, case["expected"])
            if list(got.shape) != list(expected.shape):
                raise ValueError(f"shape {list(got.shape)}, expected {list(expected.shape)}")
            # A NaN or an infinity on either side is a failure, never a difference (json.dumps
            # would write NaN, which is not JSON).
            if not bool(torch.isfinite(got).all()):
                raise ValueError("the output is not finite (NaN or infinity)")
            if not bool(torch.isfinite(expected).all()):
                raise ValueError("the expected output is not finite: the reference is broken")
            diff = float((got.double() - expected.double()).abs().max()) if got.numel() else 0.0
            print(json.dumps({"case": case["name"], "max_diff": diff}), flush=True)
        except Exception as e:  # one broken file must not hide the others' results
            print(json.dumps({"case": case["name"], "error": str(e)}), flush=True)


if __name__ == "__main__":
    main()
