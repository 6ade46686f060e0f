#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Fit time against N from Python: sosrep's default fits beside scikit-learn's, in one run.

    PYTHONPATH=build/python /usr/bin/python3 scripts/bench_fit_scaling.py [N ...] [--timeout S]

Rows: a 4-column mixture of three Gaussians (seeded), N = 1e4, 1e5 and 1e6 unless given. For
each N, each fit runs in a fresh interpreter (so one that runs out of time or memory is
stopped and said, and none warms another's caches), with every core (n_jobs=-1):

- sosrep.KDE() and sosrep.SOSREP(): their defaults (purpose 'auto': the density and the
  anomaly purpose's model from one sweep, l tuned by the Fisher divergence);
- sosrep.KDE(purpose='density'): the density alone;
- scikit-learn KernelDensity with its bandwidth chosen by GridSearchCV (20 bandwidths, 5-fold
  log-likelihood) on a 1e4-row subsample, as a user would tune it, then fitted on all rows;
- scikit-learn IsolationForest(): its defaults (256 rows per tree).

Each cell is the fit's wall seconds, then those of scoring 1e5 new rows of the same mixture
with the fitted model (`score_samples`). Prints a markdown table (one run each; the fits take
minutes) with the CPU, and what each sosrep fit said (its warnings: a subsample it took, for
example).
"""
import argparse
import json
import os
import platform
import subprocess
import sys
import time

FIT = r"""
import json, sys, time, warnings
import numpy as np
n, kind = int(sys.argv[1]), sys.argv[2]
rng = np.random.default_rng(0)
centres = np.array([[0, 0, 0, 0], [3, 1, 0, -2], [-2, 4, 1, 1]], dtype=float)
X = centres[rng.integers(0, 3, n)] + rng.normal(0, [1.0, 0.5, 0.8, 1.2], (n, 4))
said = []
t = time.monotonic()
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    if kind.startswith("sosrep"):
        import sosrep
        name, _, purpose = kind[len("sosrep."):].partition(":")
        options = {"purpose": purpose} if purpose else {}
        est = getattr(sosrep, name)(n_jobs=-1, **options).fit(X)
        extra = {"l": est.length_scale_, "backend": est.summary_.get("backend")}
    elif kind == "sklearn.kde":
        from sklearn.model_selection import GridSearchCV
        from sklearn.neighbors import KernelDensity
        sub = X[rng.choice(n, min(n, 10000), replace=False)]
        grid = GridSearchCV(KernelDensity(), {"bandwidth": np.logspace(-1.5, 0.5, 20)}, cv=5,
                            n_jobs=-1).fit(sub)
        est = KernelDensity(bandwidth=grid.best_params_["bandwidth"]).fit(X)
        extra = {"bandwidth": grid.best_params_["bandwidth"]}
    else:
        from sklearn.ensemble import IsolationForest
        est = IsolationForest(n_jobs=-1, random_state=0).fit(X)
        extra = {}
seconds = time.monotonic() - t
said = sorted({str(w.message)[:160] for w in caught})
# Scoring 1e5 new rows of the same mixture: the model's cost per row (a KDE's grows with the
# rows it holds; IsolationForest's does not).
print(json.dumps({"seconds": seconds, "said": said, **extra}), flush=True)
Q = centres[rng.integers(0, 3, 100000)] + rng.normal(0, [1.0, 0.5, 0.8, 1.2], (100000, 4))
t = time.monotonic()
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    est.score_samples(Q)
print(json.dumps({"score": time.monotonic() - t}), flush=True)
"""

KINDS = [("sosrep.KDE", "`sosrep.KDE()`"),
         ("sosrep.KDE:density", "`sosrep.KDE(purpose='density')`"),
         ("sosrep.SOSREP", "`sosrep.SOSREP()`"),
         ("sklearn.kde", "`KernelDensity` + `GridSearchCV` (1e4 subsample)"),
         ("sklearn.iforest", "`IsolationForest()`")]


def cpu_name():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def run(n, kind, timeout):
    try:
        out = subprocess.run([sys.executable, "-c", FIT, str(n), kind], capture_output=True,
                             text=True, timeout=timeout)
        stdout, failed = out.stdout, out.returncode != 0
    except subprocess.TimeoutExpired as stopped:
        out, failed = None, False
        stdout = stopped.stdout.decode() if isinstance(stopped.stdout, bytes) else stopped.stdout
    lines = [json.loads(line) for line in (stdout or "").strip().splitlines() if line]
    if not lines:
        if failed:
            last = (out.stderr.strip().splitlines() or ["?"])[-1]
            return f"failed: {last[:80]}", []
        return f"> {timeout:.0f} s (stopped)", []
    fit = lines[0]
    score = (f"{lines[1]['score']:.1f} s" if len(lines) > 1
             else f"> {timeout - fit['seconds']:.0f} s (stopped)")
    return f"{fit['seconds']:.1f} s / {score}", fit["said"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sizes", nargs="*", type=int, default=[10_000, 100_000, 1_000_000])
    parser.add_argument("--timeout", type=float, default=1800.0)
    args = parser.parse_args()
    print(f"CPU: {cpu_name()}, {os.cpu_count()} cores; Python {platform.python_version()}")
    print()
    print("| fit | " + " | ".join(f"N = {n:.0e}" for n in args.sizes) + " |")
    print("|---|" + "---|" * len(args.sizes))
    notes = []
    for kind, title in KINDS:
        cells = []
        for n in args.sizes:
            start = time.monotonic()
            cell, said = run(n, kind, args.timeout)
            cells.append(cell)
            notes += [f"- {title}, N = {n:.0e}: {s}" for s in said]
            print(f"  ({kind} at {n}: {time.monotonic() - start:.0f} s)", file=sys.stderr)
        print(f"| {title} | " + " | ".join(cells) + " |", flush=True)
    if notes:
        print()
        print("What the fits said:")
        print("\n".join(notes))


if __name__ == "__main__":
    main()
