# SPDX-License-Identifier: MIT
"""A fit that needs a subsample takes one itself and says so (issue 53, item 4): beyond
max_fit_rows rows the fit route fits a seeded subsample, warns, and still scores every row; the
held-out threshold comes from rows the model did not fit, and PyOD's decision_scores_ and labels_
cover every training row."""
import pickle
import warnings

import numpy as np
import pytest
import sosrep
from sklearn.base import clone


def mixture(n, seed=0):
    rng = np.random.default_rng(seed)
    centres = np.array([[0.0, 0.0, 0.0], [3.0, 1.0, -2.0]])
    return centres[rng.integers(0, 2, n)] + rng.normal(0.0, [1.0, 0.5, 0.8], (n, 3))


def fit_warned(est, X):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        est.fit(X)
    return [str(w.message) for w in caught if issubclass(w.category, sosrep.FitWarning)]


def test_the_fit_beyond_the_cap_is_the_fit_of_its_subsample():
    X = mixture(1500)
    capped = sosrep.KDE(scale="none", length_scale=0.3, max_fit_rows=400)
    said = fit_warned(capped, X)
    assert any("fitted on a seeded 400 of the 1500 training rows" in s for s in said), said
    rows = capped.model_.fit_rows
    assert rows is not None and len(rows) == 400
    assert np.all(np.diff(rows) > 0) and rows[0] >= 0 and rows[-1] < 1500
    assert capped.summary_["n_fitted"] == 400 and capped.summary_["n_train"] == 1500
    direct = sosrep.KDE(scale="none", length_scale=0.3, max_fit_rows=0).fit(X[rows])
    assert direct.model_.fit_rows is None
    Q = mixture(300, seed=5)
    np.testing.assert_array_equal(capped.score_samples(Q), direct.score_samples(Q))
    # Seeded: the same rows again; another seed, other rows.
    again = sosrep.KDE(scale="none", length_scale=0.3, max_fit_rows=400).fit(X)
    np.testing.assert_array_equal(again.model_.fit_rows, rows)
    other = sosrep.KDE(scale="none", length_scale=0.3, max_fit_rows=400, random_state=7).fit(X)
    assert not np.array_equal(other.model_.fit_rows, rows)


@pytest.mark.parametrize("make", [lambda: sosrep.SOSREP(grid=6, max_fit_rows=300),
                                  lambda: sosrep.KDE(max_fit_rows=300),
                                  lambda: sosrep.IForest(max_fit_rows=300)])
def test_pyod_attributes_cover_every_training_row(make):
    X = mixture(900, seed=2)
    est = make()
    said = fit_warned(est, X)
    assert any("300 of the 900 training rows" in s for s in said), said
    assert est.decision_scores_.shape == (900,)
    assert np.all(np.isfinite(est.decision_scores_))
    # PyOD's labels_: the contamination share of the training rows, to within a row.
    flagged = int(est.labels_.sum())
    assert abs(flagged - 0.1 * 900) <= 1, flagged
    # The threshold for new rows is held out: rows of the same mixture flagged near 10 %.
    new = mixture(4000, seed=9)
    share = float(np.mean(est.predict(new) == -1))  # scikit-learn: -1 outlier
    assert 0.05 < share < 0.16, share


def test_the_threshold_comes_from_rows_the_model_did_not_fit():
    X = mixture(1200, seed=3)
    est = sosrep.KDE(scale="none", length_scale=0.4, max_fit_rows=300, contamination=0.2).fit(X)
    rows = est.model_.fit_rows
    unfitted = np.setdiff1d(np.arange(1200), rows)
    values = est.score_samples(X[unfitted])
    # offset_ is the 0.2 quantile of 300 of those values (NumPy's interpolation): it lies
    # among them, and is not the fitted rows' (their own kernel bumps lift them).
    lo, hi = np.quantile(values, [0.1, 0.3])
    assert lo <= est.offset_ <= hi
    fitted = est.score_samples(X[rows])
    assert est.offset_ < np.quantile(fitted, 0.2)


def test_max_fit_rows_round_trips_and_clones(tmp_path):
    X = mixture(700, seed=4)
    est = sosrep.SOSREP(grid=5, max_fit_rows=250, random_state=3).fit(X)
    path = tmp_path / "m.json"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", sosrep.FitWarning)
        est.save(path)
        loaded = sosrep.load(path)
    assert loaded.get_params() == est.get_params()
    assert clone(loaded).get_params()["max_fit_rows"] == 250
    back = pickle.loads(pickle.dumps(est))
    np.testing.assert_array_equal(back.score_samples(X[:50]), est.score_samples(X[:50]))


def test_a_bad_cap_names_the_parameter():
    with pytest.raises(ValueError, match="max_fit_rows"):
        sosrep.KDE(max_fit_rows=-1).fit(mixture(50))
