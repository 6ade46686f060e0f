# SPDX-License-Identifier: MIT
"""sample_weight: KDE weights its rows as scikit-learn's KernelDensity does (with the length
scale tuned, the rules of thumb and the outlier threshold weighted too); the estimators that
cannot weight rows refuse in words that say which can."""
import subprocess

import numpy as np
import pandas as pd
import pytest
from sklearn.neighbors import KernelDensity

import sosrep
from conftest import write_csv


@pytest.fixture(scope="module")
def clusters():
    rng = np.random.default_rng(5)
    X = np.vstack([rng.normal(0.0, 0.5, size=(200, 2)), rng.normal(4.0, 0.5, size=(200, 2))])
    w = np.r_[np.full(200, 9.0), np.full(200, 1.0)]
    return X, w


def test_weighted_kde_equals_kernel_density(clusters):
    X, w = clusters
    Y = np.random.default_rng(6).normal(2.0, 2.0, size=(50, 2))
    ours = sosrep.KDE(length_scale=0.3, scale="none", purpose="density").fit(X, sample_weight=w)
    theirs = KernelDensity(bandwidth=0.3).fit(X, sample_weight=w)
    # KernelDensity sums its kd-tree's nodes in another order: equal to 1e-10 relative.
    np.testing.assert_allclose(ours.score_samples(Y), theirs.score_samples(Y), rtol=1e-10)
    # Per unit of X's own columns under a scaling too: the same density.
    scaled = sosrep.KDE(length_scale=0.3 / 4.5, scale="minmax", purpose="density")
    scaled.fit(X, sample_weight=w)
    span = np.ptp(X, axis=0)  # min-max: x' = (x - min) / span, so p(x) = p'(x') / prod span
    h = 0.3 / 4.5
    d2 = (((Y[:, None, :] - X[None, :, :]) / span) ** 2).sum(axis=2)
    want = np.log((w * np.exp(-d2 / (2 * h * h))).sum(axis=1) / w.sum()) \
        - np.log(2 * np.pi * h * h) - np.log(span).sum()
    np.testing.assert_allclose(scaled.score_samples(Y), want, rtol=0, atol=1e-10)


def test_weights_move_the_mass_and_the_samples(clusters):
    X, w = clusters
    est = sosrep.KDE(random_state=0, purpose="density").fit(X, sample_weight=w)
    plain = sosrep.KDE(random_state=0, purpose="density").fit(X)
    assert est.score_samples([[0.0, 0.0]])[0] > plain.score_samples([[0.0, 0.0]])[0]
    drawn = est.sample(20000, random_state=1)
    share = np.mean(drawn[:, 0] < 2.0)
    assert abs(share - 0.9) < 0.01, share


def test_lists_series_and_the_tuned_fit(clusters):
    X, w = clusters
    a = sosrep.KDE(purpose="density").fit(X, sample_weight=w)
    b = sosrep.KDE(purpose="density").fit(X, sample_weight=list(w))
    c = sosrep.KDE(purpose="density").fit(pd.DataFrame(X, columns=["u", "v"]),
                                          sample_weight=pd.Series(w))
    assert a.length_scale_ == b.length_scale_ == c.length_scale_
    with pytest.raises(ValueError, match="sample_weight"):
        sosrep.KDE().fit(X, sample_weight=w[:-1])
    with pytest.raises(ValueError, match="sample_weight: entry 3 is -1"):
        bad = w.copy()
        bad[3] = -1.0
        sosrep.KDE().fit(X, sample_weight=bad)


@pytest.mark.parametrize("cls", [sosrep.SOSREP, sosrep.KernelSoS, sosrep.IForest])
def test_estimators_that_cannot_weight_rows_say_so(cls, clusters):
    X, w = clusters
    with pytest.raises(ValueError, match=r"sample_weight: .* cannot weight its rows .*KDE"):
        cls().fit(X, sample_weight=w)
    with pytest.raises(TypeError, match="unexpected keyword argument 'weights'"):
        cls().fit(X, weights=w)


def _weighted_quantile(values, weights, c):
    """The k-th smallest value sits at (C_k - w_k) / (W - w_n) (C cumulative weight, W the
    total, w_n the largest value's weight); linear between: NumPy's for equal weights."""
    order = np.argsort(values, kind="stable")
    v, w = values[order], weights[order]
    positions = (np.cumsum(w) - w) / (w.sum() - w[-1])
    return float(np.interp(c, positions, v))


def test_the_threshold_counts_rows_by_weight(clusters):
    X, w = clusters
    est = sosrep.KDE(purpose="density", novelty=False, contamination=0.05)
    est.fit(X, sample_weight=w)
    assert abs(est.offset_ - _weighted_quantile(est.score_samples(X), w, 0.05)) < 1e-12
    # The light cluster holds 10 % of the weight and is the least dense: a weighted 5 %
    # quantile flags a large share of it; an unweighted one would flag 20 rows, 10 %.
    flagged = est.predict(X) == -1
    assert flagged[200:].mean() > 0.25 and flagged[:200].mean() < 0.05
    # novelty=True: a cross-fit held-out quantile, weighted the same way.
    held = sosrep.KDE(purpose="density", contamination=0.05).fit(X, sample_weight=w)
    assert (held.predict(X[200:]) == -1).mean() > 0.25


def test_a_weighted_model_file_scores_the_same_everywhere(clusters, tmp_path, cli):
    X, w = clusters
    est = sosrep.KDE(purpose="density").fit(X, sample_weight=w)
    est.save(tmp_path / "m.json")
    loaded = sosrep.load(tmp_path / "m.json")
    np.testing.assert_array_equal(loaded.score_samples(X), est.score_samples(X))
    write_csv(tmp_path / "x.csv", X)
    r = subprocess.run([cli, "score", "--model", str(tmp_path / "m.json"), "--data",
                        str(tmp_path / "x.csv"), "--scores-out", str(tmp_path / "s.csv")],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    scored = pd.read_csv(tmp_path / "s.csv")
    np.testing.assert_allclose(scored["log_density"], est.score_samples(X), rtol=0, atol=1e-12)
