# SPDX-License-Identifier: MIT
"""The comparison detectors against their reference implementations on a shared set: LOF
against scikit-learn's LocalOutlierFactor(novelty=True) to 1e-10 on the same rows; every
detector is higher-is-more-normal in score_samples, as scikit-learn's."""
import os

import numpy as np
import pytest
from sklearn.model_selection import train_test_split
from sklearn.neighbors import LocalOutlierFactor

import sosrep

_SHARED = os.environ.get("SOSREP_SHARED_DIR",
                         os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared"))


def _shared_set(name):
    data = np.load(os.path.join(_SHARED, "datasets", "adbench", name))
    return data["X"].astype(np.float64), data["y"].astype(int)


@pytest.mark.parametrize("name, k", [("45_wine.npz", 20), ("7_Cardiotocography.npz", 20),
                                     ("14_glass.npz", 7)])
def test_lof_equals_scikit_learns_novelty_scores(name, k):
    X, y = _shared_set(name)
    train, test = train_test_split(X, test_size=0.3, random_state=42, stratify=y)
    ours = sosrep.LOF(k=k, scale="none").fit(train).score_samples(test)
    theirs = LocalOutlierFactor(n_neighbors=k, novelty=True).fit(train).score_samples(test)
    assert np.max(np.abs(ours - theirs)) <= 1e-10 * np.max(np.abs(theirs))


def test_ecod_ranks_the_anomalies_of_a_shared_set():
    X, y = _shared_set("45_wine.npz")
    train, test, _, y_test = train_test_split(X, y, test_size=0.3, random_state=42, stratify=y)
    from sklearn.metrics import roc_auc_score
    auc = roc_auc_score(y_test, sosrep.ECOD().fit(train).anomaly_score(test))
    assert auc > 0.6, auc
