# SPDX-License-Identifier: MIT
"""DataFrames by name: feature_names_in_, scoring matched by column name (reordered back;
missing or unknown names refused in scikit-learn's words), and the model file keeping the
names, so the command line scores the DataFrame's own CSV with it."""
import subprocess
import warnings

import numpy as np
import pandas as pd
import pytest

import sosrep


@pytest.fixture()
def frame():
    rng = np.random.default_rng(4)
    return pd.DataFrame({"c": rng.normal(size=300), "b": rng.normal(3.0, 2.0, size=300),
                         "a": rng.uniform(size=300)})


@pytest.mark.parametrize("name", ["SOSREP", "KDE", "IForest"])
def test_columns_are_matched_by_name(frame, name):
    est = getattr(sosrep, name)(seed=1).fit(frame)
    assert est.feature_names_in_.dtype == object
    assert list(est.feature_names_in_) == ["c", "b", "a"]
    base = est.score_samples(frame)
    np.testing.assert_array_equal(est.score_samples(frame[["a", "b", "c"]]), base)
    np.testing.assert_array_equal(est.anomaly_score(frame[["b", "a", "c"]]),
                                  est.anomaly_score(frame))
    renamed = frame.rename(columns={"a": "z"})
    with pytest.raises(ValueError, match="Feature names unseen at fit time:\n- z\n"):
        est.score_samples(renamed)
    with pytest.raises(ValueError, match="seen at fit time, yet now missing:\n- a\n"):
        est.decision_function(frame[["c", "b"]])
    with pytest.warns(UserWarning, match="X does not have valid feature names"):
        np.testing.assert_array_equal(est.score_samples(frame.to_numpy()), base)
    # Fitted on an array, a DataFrame warns the other way and is taken by position.
    plain = getattr(sosrep, name)(seed=1).fit(frame.to_numpy())
    assert not hasattr(plain, "feature_names_in_")
    with pytest.warns(UserWarning, match="X has feature names, but"):
        plain.score_samples(frame)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        est.score_samples(frame)  # no warning when the names match


def test_the_command_line_scores_the_frames_own_csv(frame, tmp_path, cli):
    est = sosrep.SOSREP(seed=1, purpose="density").fit(frame)
    est.save(tmp_path / "m.json")
    frame[["a", "c", "b"]].to_csv(tmp_path / "same.csv", index=False)  # reordered columns
    r = subprocess.run([cli, "score", "--model", str(tmp_path / "m.json"), "--data",
                        str(tmp_path / "same.csv"), "--scores-out", str(tmp_path / "s.csv")],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    scored = pd.read_csv(tmp_path / "s.csv")
    np.testing.assert_allclose(scored["log_density"], est.score_samples(frame), rtol=0,
                               atol=1e-12)
    loaded = sosrep.load(tmp_path / "m.json")
    assert list(loaded.feature_names_in_) == ["c", "b", "a"]
    np.testing.assert_array_equal(loaded.score_samples(frame[["b", "c", "a"]]),
                                  est.score_samples(frame))
