"""The fine-tuning example, end to end with the real CLI in a fresh workspace: fashion_cnn5
pretrained on Fashion-MNIST classes 0-4 (fashion_pretrain.run.yaml), then classes 5-9 from 500
training images, once starting from the pretrained run with the backbone frozen
(fashion_finetune.run.yaml) and once from the seed with every layer trained
(fashion_scratch.run.yaml), with the same data and budget. Prints both test accuracies (on all
5,000 test images of classes 5-9) and a JSON line. The goal: the fine-tuned run scores higher.

  /usr/bin/python3 tests/bench/bench_finetune.py [--epochs N]   # N: both step-2 runs' budget
"""
import argparse
import json
import os
import sqlite3
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
CLI = os.path.join(ROOT, "build", "bin", "torchwright")
EXAMPLES = os.path.join(ROOT, "resources", "examples")


def train(ws, run_file, *sets):
    args = [CLI, "train", os.path.join(EXAMPLES, run_file), "--workspace", ws]
    for s in sets:
        args += ["--set", s]
    p = subprocess.run(args, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"torchwright train {run_file} failed:\n{p.stdout}{p.stderr}")
    return p.stdout


def test_accuracy(ws, name):
    db = sqlite3.connect(os.path.join(ws, "tracking.db"))
    (value,) = db.execute(
        "SELECT m.value FROM metrics m JOIN metric_keys k ON k.id = m.key_id JOIN runs r ON r.id = m.run_id "
        "WHERE r.name = ? AND k.key = 'test/accuracy' ORDER BY m.step DESC LIMIT 1", (name,)).fetchone()
    return value


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--epochs", type=int, default=0, help="budget of both step-2 runs (0: the examples' own)")
    args = ap.parse_args()
    budget = [f"train.epochs={args.epochs}"] if args.epochs else []
    with tempfile.TemporaryDirectory() as ws:
        train(ws, "fashion_pretrain.run.yaml")
        out = train(ws, "fashion_finetune.run.yaml", *budget)
        taken = next((line for line in out.splitlines() if line.startswith("weights from")), "")
        train(ws, "fashion_scratch.run.yaml", *budget)
        pretrain = test_accuracy(ws, "fashion-pretrain")
        tuned = test_accuracy(ws, "fashion-finetune")
        scratch = test_accuracy(ws, "fashion-scratch")
    print(f"pretrained on classes 0-4: test accuracy {100 * pretrain:.2f}%")
    print(taken)
    print(f"classes 5-9 from 500 images: fine-tuned {100 * tuned:.2f}%, from scratch {100 * scratch:.2f}% "
          f"({100 * (tuned - scratch):+.2f} points)")
    print(json.dumps({"bench": "finetune", "epochs": args.epochs or "example", "pretrain_accuracy": pretrain,
                      "finetuned_accuracy": tuned, "scratch_accuracy": scratch}))
    met = tuned > scratch
    print(f"goal: fine-tuned above from scratch: {'met' if met else 'MISSED'}")
    if not met:
        sys.exit(1)


if __name__ == "__main__":
    main()
