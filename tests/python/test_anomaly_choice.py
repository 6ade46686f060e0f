# SPDX-License-Identifier: MIT
# Which model anomaly scores come from, and why, is in summary_["anomaly_model"] (issue 53,
# item 6): the anomaly purpose's under purpose='auto' where it decides something, else the
# density's, said so in each case.
import warnings

import numpy as np
import pytest

import sosrep


@pytest.fixture(scope="module")
def blob():
    rng = np.random.default_rng(0)
    return np.vstack([rng.normal(size=(280, 3)), rng.normal(6.0, 0.3, size=(20, 3))])


def _fit(est, X):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", sosrep.FitWarning)
        return est.fit(X)


def test_auto_uses_the_anomaly_purposes_model_and_says_why(blob):
    est = _fit(sosrep.SOSREP(), blob)
    choice = est.summary_["anomaly_model"]
    assert choice["used"] is True
    assert choice["purpose"] == "anomaly" and choice["selection_rule"] == "anomaly"
    assert choice["length_scale"] == pytest.approx(est.anomaly_model_.length_scale)
    assert "anomaly_model_" in choice["note"] and "purpose='density'" in choice["note"]
    # Here the neighbours' reach is below the density's l: one scale, and the note says the
    # scores are the density's, which they are.
    assert "one scale" in choice["note"], choice["note"]
    np.testing.assert_array_equal(est.anomaly_score(blob), -est.score_samples(blob))


def test_a_two_scale_anomaly_model_names_both_scales():
    # Two moons at a fine l: the reach of 32 neighbours exceeds the FD-tuned l.
    rng = np.random.default_rng(1)
    t = rng.uniform(0, np.pi, 300)
    X = np.c_[np.cos(t), np.sin(t)] + rng.normal(0, 0.05, (300, 2))
    est = _fit(sosrep.SOSREP(), X)
    note = est.summary_["anomaly_model"]["note"]
    assert "most anomalous rank at l = " in note, note
    assert not np.array_equal(est.anomaly_score(X), -est.score_samples(X))


@pytest.mark.parametrize("params, words", [
    ({"purpose": "density"}, "purpose='density' was asked"),
    ({"purpose": "anomaly"}, "purpose='anomaly' was asked"),
    ({"length_scale": 0.3}, "a fixed length scale"),
    ({"selection": "paper"}, "selection=paper"),
])
def test_otherwise_the_density_scores_and_that_is_said(blob, params, words):
    est = _fit(sosrep.SOSREP(**params), blob)
    choice = est.summary_["anomaly_model"]
    assert choice["used"] is False and words in choice["note"], choice
    assert "anomaly_model_" not in est.__dict__
    if params.get("purpose") != "anomaly":
        np.testing.assert_array_equal(est.anomaly_score(blob), -est.score_samples(blob))


def test_a_loaded_auto_model_says_it_holds_the_density(blob, tmp_path):
    est = _fit(sosrep.SOSREP(), blob)
    path = tmp_path / "m.json"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", sosrep.FitWarning)
        est.save(path)
    loaded = sosrep.load(path)
    choice = loaded.summary_["anomaly_model"]
    assert choice["used"] is False and "read from a file" in choice["note"]


def test_a_detector_without_a_purpose_has_no_entry(blob):
    assert "anomaly_model" not in _fit(sosrep.IForest(), blob).summary_
