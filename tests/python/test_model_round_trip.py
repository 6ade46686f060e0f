# SPDX-License-Identifier: MIT
"""A saved model comes back as it was fitted (issue 53, item 5): every parameter of every class
(random_state was lost, so clone(load(f)) refitted another model), and the command line scores
the file of a DataFrame-fitted model bit for bit as Python does."""
import subprocess
import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone

import sosrep

_NAMES = sosrep.estimators()


def _fitted(name, X, **params):
    est = sosrep.Estimator(name, **params)
    if isinstance(est, sosrep.RatioEstimator):
        return est.fit(X[: len(X) // 2], X[len(X) // 2:] * 1.3)
    return est.fit(X)


@pytest.mark.parametrize("name", _NAMES)
def test_load_gives_back_every_parameter(moons, tmp_path, name):
    X = moons[:200]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", sosrep.FitWarning)
        # Kernel SoS at a fixed l: its tuned fit takes 7 s and a parameter is a parameter.
        fixed = {"length_scale": 0.5} if name == "sos-mmd" else {}
        est = _fitted(name, X, random_state=3, **fixed)
        est.save(tmp_path / "m.json")
        loaded = sosrep.load(tmp_path / "m.json")
        assert loaded.get_params() == est.get_params()
        assert loaded.get_params()["random_state"] == 3
        # clone() of the loaded model refits the same model.
        again = _fitted(name, X, **clone(loaded).get_params())
    rows = moons[200:260]
    method = "ratio" if isinstance(est, sosrep.RatioEstimator) else "score_samples"
    want = getattr(est, method)(rows)
    assert np.array_equal(getattr(again, method)(rows), want)
    assert np.array_equal(getattr(loaded, method)(rows), want)


def test_a_random_state_object_comes_back_as_the_seed_it_drew(moons, tmp_path):
    est = sosrep.SOSREP(random_state=np.random.RandomState(4)).fit(moons)
    est.save(tmp_path / "m.json")
    loaded = sosrep.load(tmp_path / "m.json")
    assert loaded.get_params()["random_state"] is None
    twin = clone(loaded).fit(moons)
    assert np.array_equal(twin.score_samples(moons), est.score_samples(moons))


@pytest.mark.parametrize("name,params", [
    ("sosrep", {}), ("sosrep", {"purpose": "anomaly"}), ("kde", {}),
    ("sos-mmd", {"length_scale": 0.5}),
    ("iforest", {}), ("knn", {}), ("lof", {}), ("ecod", {})])
def test_the_command_line_scores_a_dataframe_fitted_model_as_python(moons, tmp_path, cli, name,
                                                                     params):
    frame = pd.DataFrame(moons * [3.0, 0.01] + [100.0, -5.0], columns=["width", "depth"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", sosrep.FitWarning)
        est = sosrep.Estimator(name, **params).fit(frame)
        est.save(tmp_path / "m.json")
        loaded = sosrep.load(tmp_path / "m.json")
    rows = np.random.default_rng(9).normal(size=(300, 2)) * [3.0, 0.01] + [100.0, -5.0]
    named = pd.DataFrame(rows, columns=["width", "depth"])
    # The columns in another order: the command line matches them by name, as Python does.
    named[["depth", "width"]].to_csv(tmp_path / "rows.csv", index=False, float_format="%.17g")
    subprocess.run([cli, "score", "--model", str(tmp_path / "m.json"), "--data",
                    str(tmp_path / "rows.csv"), "--scores-out", str(tmp_path / "s.csv")],
                   check=True, capture_output=True)
    got = pd.read_csv(tmp_path / "s.csv", float_precision="round_trip")
    if "log_density" in got:
        assert np.array_equal(got["log_density"].to_numpy(), est.score_samples(named))
    # The file holds model_ (under purpose='auto' the density, whose anomaly scores the
    # command line gives): the loaded model's are the file's.
    assert np.array_equal(got["anomaly_score"].to_numpy(), loaded.anomaly_score(named))
    if "anomaly_model_" not in est.__dict__:
        assert np.array_equal(got["anomaly_score"].to_numpy(), est.anomaly_score(named))
