# SPDX-License-Identifier: MIT
"""A KDE is a sum: exact at any number of rows by default, approximate only when asked, and
then said with its measured error (issue 53, item 1: 20 000 rows took Nystroem landmarks without
a word, max |delta log p| 10.1)."""
import re
import warnings

import numpy as np
import pytest
import sosrep


def logsumexp(a, axis):
    top = np.max(a, axis=axis, keepdims=True)
    return np.squeeze(top, axis=axis) + np.log(np.sum(np.exp(a - top), axis=axis))


def mixture(n, seed=0):
    rng = np.random.default_rng(seed)
    return np.vstack([rng.normal(0.0, 1.0, (n // 2, 2)), rng.normal(3.0, 0.5, (n - n // 2, 2))])


def queries(X, seed=1):
    """Training rows, new rows from the same mixture and far rows (the sparse tail)."""
    rng = np.random.default_rng(seed)
    far = rng.normal(1.5, 4.0, (50, 2))
    return np.vstack([X[:: len(X) // 150][:150], mixture(200, seed + 1), far])


def exact_gaussian_kde(X, Q, length_scale):
    """log p by the sum itself, in X's units: the default min-max scaling maps each column to
    [0, 1], the Gaussian kernel of length scale l there, normalized in data units."""
    lo, span = X.min(0), X.max(0) - X.min(0)
    Xs, Qs = (X - lo) / span, (Q - lo) / span
    out = np.empty(len(Q))
    for s in range(0, len(Q), 50):
        d2 = ((Qs[s:s + 50, None, :] - Xs[None, :, :]) ** 2).sum(-1)
        out[s:s + 50] = logsumexp(-d2 / (2 * length_scale**2), axis=1)
    d = X.shape[1]
    return out - np.log(len(X)) - d / 2 * np.log(2 * np.pi * length_scale**2) - np.log(span).sum()


def fit_quietly(estimator, X):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        estimator.fit(X)
    return estimator, [str(w.message) for w in caught if issubclass(w.category, sosrep.FitWarning)]


def test_the_default_kde_is_exact_at_20000_rows():
    X = mixture(20_000)
    kde, said = fit_quietly(sosrep.KDE(n_jobs=2), X)
    assert kde.summary_["backend"] == "dense" and "rank" not in kde.summary_
    assert not [m for m in said if "Nystroem" in m]
    Q = queries(X)
    got = kde.score_samples(Q)
    want = exact_gaussian_kde(X, Q, kde.length_scale_)
    assert np.max(np.abs(got - want)) < 1e-10


@pytest.mark.parametrize("kernel", ["gaussian", "laplace", "sdo-exact"])
def test_kde_is_exact_at_50000_rows_with_every_kernel(kernel):
    """Beyond 15 000 rows a SOSREP fit may hold its kernel by landmarks; a KDE never does
    unless asked. Oracle: the sum over all rows is the mean of the sums over five parts of
    10 000 rows, each below the size where any approximation was ever taken."""
    X = mixture(50_000)
    options = {"kernel": kernel, "length_scale": 0.03, "n_jobs": 2}
    if kernel == "sdo-exact":
        options.update(kernel="sdo", sdo_method="exact")
    kde, said = fit_quietly(sosrep.KDE(**options), X)
    assert "nystrom" not in kde.summary_["backend"] and not said
    Q = queries(X)
    got = kde.score_samples(Q)
    if kernel == "gaussian":
        assert np.max(np.abs(got - exact_gaussian_kde(X, Q, 0.03))) < 1e-10
    # Unscaled (scale="none"), so that each part's length scale is the whole sample's.
    options.update(scale="none", length_scale=0.3)
    whole = sosrep.KDE(**options).fit(X).score_samples(Q)
    shuffled = np.random.default_rng(2).permutation(X)  # parts of both components
    parts = [sosrep.KDE(**options).fit(p).score_samples(Q) for p in np.array_split(shuffled, 5)]
    want = logsumexp(np.vstack(parts), axis=0) - np.log(5)
    if kernel != "sdo-exact":
        assert np.max(np.abs(whole - want)) < 1e-10
        return
    # The SDO kernel has negative lobes: far from the rows a sum can be 0 or below, where log p
    # is floored, whole or in part: compared where no sum is.
    floor = np.min(whole)
    kept = np.min(np.vstack(parts + [whole]), axis=0) > floor + 1.0
    assert kept.sum() > 300
    assert np.max(np.abs(whole - want)[kept]) < 1e-10


def test_a_low_rank_kde_is_asked_for_and_says_its_error():
    X = mixture(20_000)
    kde, said = fit_quietly(sosrep.KDE(backend="lowrank", length_scale=0.05, n_jobs=2), X)
    assert kde.summary_["backend"] == "nystrom"
    notes = [m for m in said if "Nystroem landmarks" in m]
    assert len(notes) == 1, said
    bound = float(re.search(r"is at most ([0-9.e+-]+)", notes[0]).group(1))
    # The rows it measured: every 40th training row from the 20th (n / 500).
    rows = X[20::40][:500]
    exact = sosrep.KDE(length_scale=0.05, n_jobs=2).fit(X).score_samples(rows)
    gap = np.abs(kde.score_samples(rows) - exact)
    assert gap.max() == pytest.approx(bound, rel=5e-3)
    assert gap.max() > 1e-6  # an approximation, not the sums
