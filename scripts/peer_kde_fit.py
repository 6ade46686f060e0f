#!/usr/bin/env python3
"""The peer of `sosrep fit`'s default, timed by sosrep-bench in the same run (issue 25).

scikit-learn's KernelDensity with its bandwidth chosen by GridSearchCV: 15 bandwidths
log-spaced over two decades each side of the median pairwise distance (the grid `sosrep fit`
sweeps), 5-fold likelihood cross-validation, 2 jobs, on the min-max-scaled training rows.
Prints one line: "seconds <wall seconds of the search and refit> bandwidth <chosen>".

  peer_kde_fit.py TRAIN.csv [--label-column y]

Needs numpy and scikit-learn (scripts/install-deps.sh --python).
"""
import argparse
import time

import numpy as np
from sklearn.model_selection import GridSearchCV
from sklearn.neighbors import KernelDensity


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('train')
    ap.add_argument('--label-column', default='y')
    a = ap.parse_args()
    with open(a.train) as f:
        header = f.readline().strip().split(',')
    data = np.loadtxt(a.train, delimiter=',', skiprows=1, ndmin=2)
    keep = [i for i, name in enumerate(header) if name != a.label_column]
    x = data[:, keep]
    lo, hi = x.min(axis=0), x.max(axis=0)
    x = (x - lo) / np.where(hi > lo, hi - lo, 1.0)
    rng = np.random.default_rng(0)
    sample = x[rng.choice(len(x), size=min(len(x), 1000), replace=False)]
    d = np.sqrt(((sample[:, None, :] - sample[None, :, :]) ** 2).sum(-1))
    centre = np.median(d[np.triu_indices(len(sample), 1)])
    grid = centre * np.logspace(-2, 2, 15)
    start = time.perf_counter()
    search = GridSearchCV(KernelDensity(kernel='gaussian'), {'bandwidth': grid}, cv=5, n_jobs=2)
    search.fit(x)
    seconds = time.perf_counter() - start
    print(f"seconds {seconds:.3f} bandwidth {search.best_params_['bandwidth']:.6g}")


if __name__ == '__main__':
    main()
