"""What the memory benchmarks share: `torchwright train` run in a process tree of its own, so that
the children's ru_maxrss is that run's worker, and the time from the worker's start to its first
recorded step, read from the tracking database (runs.start_ms and the first train/loss row)."""

import os
import sqlite3
import subprocess
import sys
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
CLI = os.path.join(ROOT, "build", "bin", "torchwright")


def train_measured(run_file, ws, name):
    """Trains `run_file` into workspace `ws`; exits naming `name` when it fails. Returns peak_mb,
    first_step_s and wall_s, and the open tracking database as `db`."""
    script = ("import resource, subprocess, sys\n"
              "p = subprocess.run(sys.argv[1:], capture_output=True, text=True)\n"
              "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
              "sys.stderr.write(p.stdout + p.stderr)\n"
              "sys.exit(p.returncode)\n")
    start = time.perf_counter()
    p = subprocess.run([sys.executable, "-c", script, CLI, "train", run_file, "--workspace", ws],
                       capture_output=True, text=True)
    wall = time.perf_counter() - start
    if p.returncode != 0:
        sys.exit(f"training {name} failed:\n{p.stderr}")
    peak_mb = int(p.stdout.strip().splitlines()[-1]) / 1024
    db = sqlite3.connect(os.path.join(ws, "tracking.db"))
    start_ms, first_ms = db.execute(
        "SELECT r.start_ms, MIN(m.time_ms) FROM runs r JOIN metrics m ON m.run_id = r.id "
        "JOIN metric_keys k ON k.id = m.key_id WHERE k.key = 'train/loss'").fetchone()
    return {"peak_mb": peak_mb, "first_step_s": (first_ms - start_ms) / 1000.0, "wall_s": wall, "db": db}
