#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The default fit from Python beside the same fit from the command line, in one run.

    PYTHONPATH=build/python /usr/bin/python3 scripts/bench_python_vs_cli.py [ADBENCH_DIR]

Makes the seed-42 shuttle split (`sosrep split --stratify --seed 42`, 10 000 rows, 70/30),
then times, alternately and three times each, `sosrep fit --train train.csv` (its defaults)
and `sosrep.SOSREP().fit(X)` on the same rows read from that file, and prints a markdown
table of the medians and their ratio (issue 26: Python at most 5 % above the command line).
Both go through the same fit route: the length scales are checked to be equal. The fit's
cost against N (1e4 to 1e6 rows) beside scikit-learn's is scripts/bench_fit_scaling.py.
"""
import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

import sosrep


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    data = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "..", "shared", "datasets",
                                                                "adbench")
    cli = os.environ.get("SOSREP_CLI", os.path.join(root, "build", "app", "sosrep"))
    with tempfile.TemporaryDirectory() as tmp:
        train = os.path.join(tmp, "train.csv")
        subprocess.run([cli, "split", "--data", os.path.join(data, "32_shuttle.npz"),
                        "--stratify", "--seed", "42", "--train-out", train, "--test-out",
                        os.path.join(tmp, "test.csv")], check=True, capture_output=True)
        table = np.genfromtxt(train, delimiter=",", names=True)
        features = [n for n in table.dtype.names if n != "y"]
        X = np.column_stack([table[n] for n in features])
        ours, theirs = [], []
        for _ in range(3):
            t = time.monotonic()
            out = subprocess.run([cli, "fit", "--train", train, "--label-column", "y"],
                                 check=True, capture_output=True, text=True)
            theirs.append(time.monotonic() - t)
            cli_scale = json.loads(out.stdout.strip().splitlines()[-1])["length_scale"]
            t = time.monotonic()
            est = sosrep.SOSREP().fit(X)
            ours.append(time.monotonic() - t)
            assert est.length_scale_ == cli_scale, (est.length_scale_, cli_scale)
    py, cl = float(np.median(ours)), float(np.median(theirs))
    print("| default fit, shuttle seed-42 split | N | command line (median of 3) | "
          "Python (median of 3) | Python / command line | l |")
    print("|---|---|---|---|---|---|")
    print(f"| `sosrep fit --train` vs `sosrep.SOSREP().fit(X)` | {X.shape[0]} | {cl:.2f} s | "
          f"{py:.2f} s | {py / cl:.3f} | {est.length_scale_:.6g} |")


if __name__ == "__main__":
    main()
