# SPDX-License-Identifier: MIT
"""scikit-learn's own conformance checks on every density and detector class the registry
makes (generated, so a new plug-in is checked without a line here)."""
import warnings

import pytest
from sklearn.utils.estimator_checks import check_estimator

import sosrep

_CLASSES = [type(sosrep.Estimator(name)) for name in sosrep.estimators()
            if issubclass(type(sosrep.Estimator(name)), sosrep.DetectorEstimator)]


def _instances():
    """Each class as constructed by default; a class with a purpose, under each purpose. Under
    purpose='auto' (its default) decision_function comes from the anomaly purpose's model while
    score_samples stays the density's log p, so scikit-learn's identity decision_function =
    score_samples - offset_ (check_outliers_train) holds per purpose, not across them: that
    case has its own test (test_auto_purpose_scores_anomalies_with_the_anomaly_model)."""
    for cls in _CLASSES:
        if "purpose" in cls().get_params():
            yield pytest.param(cls, {"purpose": "density"}, id=f"{cls.__name__}-density")
            yield pytest.param(cls, {"purpose": "anomaly"}, id=f"{cls.__name__}-anomaly")
        else:
            yield pytest.param(cls, {}, id=cls.__name__)


@pytest.mark.parametrize("cls,params", _instances())
def test_check_estimator(cls, params):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_estimator(cls(**params))
    # Nothing skipped (pandas, which one check needs, is among the dependencies).
    skipped = [str(w.message) for w in caught if w.category.__name__ == "SkipTestWarning"]
    assert not skipped, skipped
