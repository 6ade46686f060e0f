# SPDX-License-Identifier: MIT
"""scikit-learn's own conformance checks on every density and detector class the registry
makes (generated, so a new plug-in is checked without a line here)."""
import warnings

import pytest
from sklearn.utils.estimator_checks import check_estimator

import sosrep

_CLASSES = [type(sosrep.Estimator(name)) for name in sosrep.estimators()
            if issubclass(type(sosrep.Estimator(name)), sosrep.DetectorEstimator)]


@pytest.mark.parametrize("cls", _CLASSES, ids=lambda c: c.__name__)
def test_check_estimator(cls):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_estimator(cls())
    # Nothing skipped (pandas, which one check needs, is among the dependencies).
    skipped = [str(w.message) for w in caught if w.category.__name__ == "SkipTestWarning"]
    assert not skipped, skipped
