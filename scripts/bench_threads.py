#!/usr/bin/env python3
"""Fit time of the default SOSREP with 1 and 2 threads (n_jobs), idle and beside a busy neighbour.

The data: Cardiotocography's training part as the ADBench protocol draws it (seed 42: a 70 %
stratified split, min-max scaled by the fit), 1479 rows x 21 columns. Each cell is the median of
REPEATS fits, measured in one run, side by side; the busy cells run beside one CPU-bound
process, started WARMUP seconds earlier so the load average (which OpenMP's dynamic adjustment
reads) has seen it. Prints a table with the ratio of each cell to the idle single-thread fit.

  python3 scripts/bench_threads.py [--repeats 5] [--warmup 60]
Needs the built package (PYTHONPATH=build/python).
"""
import argparse
import multiprocessing
import os
import statistics
import time

import numpy as np

import sosrep


def spin(stop):
    while not stop.is_set():
        pass


def training_part(path, seed=42):
    z = np.load(path)
    X, y = np.asarray(z["X"], dtype=float), np.asarray(z["y"]).ravel()
    rng = np.random.default_rng(seed)
    train = []
    for label in (0, 1):  # stratified 70/30
        idx = rng.permutation(np.flatnonzero(y == label))
        train.extend(idx[:int(round(0.7 * len(idx)))])
    return X[np.sort(train)]


def median_fit_seconds(X, n_jobs, repeats):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        sosrep.SOSREP(n_jobs=n_jobs, seed=1).fit(X)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--data", default=os.path.join(here, "..", "..", "shared", "datasets",
                                                  "adbench", "7_Cardiotocography.npz"))
    p.add_argument("--repeats", type=int, default=5)
    p.add_argument("--warmup", type=float, default=60.0)
    a = p.parse_args()
    X = training_part(a.data)
    print(f"default SOSREP fit of {X.shape[0]} x {X.shape[1]} rows, median of {a.repeats}; "
          f"{sosrep._sosrep.available_cores()} cores")
    cells = {}
    for n_jobs in (1, 2):
        cells[("idle", n_jobs)] = median_fit_seconds(X, n_jobs, a.repeats)
    stop = multiprocessing.Event()
    neighbour = multiprocessing.Process(target=spin, args=(stop,))
    neighbour.start()
    try:
        time.sleep(a.warmup)
        for n_jobs in (1, 2):
            cells[("busy", n_jobs)] = median_fit_seconds(X, n_jobs, a.repeats)
    finally:
        stop.set()
        neighbour.join()
    base = cells[("idle", 1)]
    print("| machine | n_jobs=1 | n_jobs=2 |")
    print("|---|---|---|")
    for state in ("idle", "busy"):
        row = [f"{cells[(state, n)]:.3f} s ({cells[(state, n)] / base:.2f}x)" for n in (1, 2)]
        print(f"| {state} | " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
