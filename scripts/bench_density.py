#!/usr/bin/env python3
"""Held-out log-likelihood of the density rule against scikit-learn's CV-tuned KernelDensity.

For each data set and seed: fit on the training rows with `sosrep fit` (its default purpose,
density, and the other rules named below), score fresh rows with `sosrep score`, and fit
scikit-learn's KernelDensity with the bandwidth chosen by 5-fold likelihood cross-validation
(GridSearchCV) on the same min-max-scaled rows. Prints the mean held-out log-likelihood per
method (higher is better), per unit of the data's own columns (sosrep's log densities are; CV-KDE's
are moved there by the min-max Jacobian), then each method's mean difference to CV-KDE over the
same splits with its standard error (paired over seeds: the splits' own spread cancels).
--scalings replaces the methods by the density rule under each scaling named: in the data's units
the scalings' likelihoods compare directly.

  2-D toys: `sosrep generate` (500 training rows, 4000 fresh rows of the same distribution).
  Real sets: the normal rows of ADBench sets, a seeded 70/30 split.

Needs numpy and scikit-learn (Debian: python3-numpy python3-sklearn;
scripts/install-deps.sh --python installs them).
"""
import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np
from sklearn.model_selection import GridSearchCV
from sklearn.neighbors import KernelDensity

TOYS = ['moons', 'gmm', 'blocks', 'rings']
REAL = ['14_glass', '45_wine', '43_WDBC', '40_vowels', '37_Stamps', '27_PageBlocks']
METHODS = [
    ('SOSREP, density rule (default)', 'sosrep', []),
    ('SOSREP, density rule on one 80/20 split', 'sosrep', ['--fd-folds', '1']),
    ("SOSREP, paper's rule", 'sosrep', ['--selection', 'paper']),
    ('SOSREP, former default (ranking)', 'sosrep', ['--selection', 'ranking']),
    ('KDE, density rule', 'kde', []),
]


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f'{" ".join(cmd)} failed ({r.returncode}): {r.stderr.strip()}')
    return r.stdout


def write_csv(path, x):
    cols = ','.join(f'x{j + 1}' for j in range(x.shape[1]))
    np.savetxt(path, x, delimiter=',', header=cols, comments='', fmt='%.17g')


def read_csv(path):
    return np.loadtxt(path, delimiter=',', skiprows=1)


def sosrep_loglik(sosrep, tmp, estimator, flags, seed):
    model = os.path.join(tmp, 'model.json')
    scores = os.path.join(tmp, 'scores.csv')
    run([sosrep, 'fit', '--train', os.path.join(tmp, 'train.csv'), '--estimator', estimator,
         '--seed', str(seed), '--model-out', model] + flags)
    run([sosrep, 'score', '--model', model, '--data', os.path.join(tmp, 'test.csv'),
         '--scores-out', scores])
    with open(scores) as f:
        header = f.readline().strip().split(',')
    return np.loadtxt(scores, delimiter=',', skiprows=1)[:, header.index('log_density')].mean()


def cv_kde_loglik(train, test):
    lo, hi = train.min(0), train.max(0)
    scale = np.where(hi > lo, hi - lo, 1.0)
    xs, ys = (train - lo) / scale, (test - lo) / scale
    search = GridSearchCV(KernelDensity(kernel='gaussian'),
                          {'bandwidth': np.logspace(-3, 0.5, 36)}, cv=5)
    search.fit(xs)
    # Per unit of the data's columns, as sosrep's: minus the log of the min-max Jacobian.
    return (search.best_estimator_.score_samples(ys).mean() - np.log(scale).sum(),
            search.best_params_['bandwidth'])


def toy_split(sosrep, tmp, kind, seed, n):
    run([sosrep, 'generate', '--kind', kind, '-n', str(n), '--seed', str(seed),
         '--out', os.path.join(tmp, 'train_l.csv')])
    run([sosrep, 'generate', '--kind', kind, '-n', '4000', '--seed', str(seed + 100000),
         '--out', os.path.join(tmp, 'test_l.csv')])
    return read_csv(os.path.join(tmp, 'train_l.csv'))[:, :2], \
        read_csv(os.path.join(tmp, 'test_l.csv'))[:, :2]


def real_split(data_dir, name, seed):
    z = np.load(os.path.join(data_dir, name + '.npz'))
    x = np.asarray(z['X'], dtype=float)[np.asarray(z['y']).ravel() == 0]
    rng = np.random.default_rng(seed)
    idx = rng.permutation(len(x))
    cut = int(round(0.7 * len(x)))
    return x[idx[:cut]], x[idx[cut:]]


def main():
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    p.add_argument('--sosrep', default=os.path.join(os.path.dirname(__file__), '..', 'build',
                                                    'app', 'sosrep'))
    p.add_argument('--seeds', type=int, default=20, help='seeds per toy (default 20)')
    p.add_argument('--real-seeds', type=int, default=20, help='seeds per real set (default 20)')
    p.add_argument('--n', type=int, default=500, help='training rows of a toy (default 500)')
    p.add_argument('--data-dir', default=os.path.join(os.path.dirname(__file__), '..', '..',
                                                      'shared', 'datasets', 'adbench'))
    p.add_argument('--only', default='', help='comma-separated data set names to run')
    p.add_argument('--scalings', default='',
                   help='comma-separated scalings (minmax,zscore,robust,rank): the density rule '
                        'under each instead of the methods above')
    a = p.parse_args()
    methods = METHODS
    if a.scalings:
        methods = [(f'SOSREP, density rule, scale={s}', 'sosrep', ['--scale', s])
                   for s in a.scalings.split(',')]
    only = [s for s in a.only.split(',') if s]
    sets = [(t, 'toy') for t in TOYS] + [(r, 'real') for r in REAL]
    sets = [s for s in sets if not only or s[0] in only]
    names = [m[0] for m in methods] + ['scikit-learn KernelDensity, 5-fold CV']
    print('mean held-out log-likelihood (higher is better)')
    print('data set\t' + '\t'.join(names))
    diffs = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, kind in sets:
            seeds = range(1, 1 + (a.seeds if kind == 'toy' else a.real_seeds))
            values = []
            for seed in seeds:
                if kind == 'toy':
                    train, test = toy_split(a.sosrep, tmp, name, seed, a.n)
                else:
                    train, test = real_split(a.data_dir, name, seed)
                write_csv(os.path.join(tmp, 'train.csv'), train)
                write_csv(os.path.join(tmp, 'test.csv'), test)
                row = [sosrep_loglik(a.sosrep, tmp, est, flags, seed) for _, est, flags in methods]
                row.append(cv_kde_loglik(train, test)[0])
                values.append(row)
            values = np.array(values)
            label = f'{name} ({len(train)} rows, d = {train.shape[1]}, {len(seeds)} seeds)'
            print(label + '\t' + '\t'.join(f'{v:.3f}' for v in values.mean(axis=0)), flush=True)
            d = values[:, :-1] - values[:, -1:]
            se = d.std(axis=0, ddof=1) / np.sqrt(len(d)) if len(d) > 1 else np.zeros(d.shape[1])
            diffs.append((label, d.mean(axis=0), se))
    print('\nminus CV-KDE on the same splits: mean ± standard error')
    print('data set\t' + '\t'.join(names[:-1]))
    for label, m, se in diffs:
        print(label + '\t' + '\t'.join(f'{x:+.3f} ± {e:.3f}' for x, e in zip(m, se)))
    m = np.array([x[1] for x in diffs])
    se = np.array([x[2] for x in diffs])
    print('at least as good as CV-KDE on\t' +
          '\t'.join(f'{int((m[:, j] >= 0).sum())} of {len(diffs)} '
                     f'({int((m[:, j] >= -2 * se[:, j]).sum())} within 2 SE)'
                     for j in range(m.shape[1])))


if __name__ == '__main__':
    main()
