# SPDX-License-Identifier: MIT
"""SOSREP Studio's estimators from NumPy, by scikit-learn's conventions.

    import sosrep
    model = sosrep.SOSREP().fit(X)          # length_scale="auto": Fisher-divergence tuning
    log_p = model.score_samples(X_new)      # log density (or log pre-density)
    model.save("model.json")                # the command line's and the app's model file

Every estimator of the core's registry is a class here (SOSREP, KDE, KernelSoS, FIRE, ...);
`sosrep.Estimator("name", **options)` makes one by name.
"""
import os
import warnings

import numpy as np

from . import _sosrep
from ._estimators import (DensityEstimator, DetectorEstimator, FitWarning, RatioEstimator,
                          SosrepEstimator, _integer, _python_value, class_name, keyword_of,
                          make_classes)

__version__ = _sosrep.__version__  # the project's version, as `sosrep --version` prints it

_classes = make_classes()
globals().update(_classes)
_by_name = {e["name"]: _classes[class_name(e["name"])] for e in _sosrep.estimators()}


def estimators():
    """The registered estimators' names."""
    return list(_by_name)


def Estimator(name, **options):
    """The estimator `name` of the registry, with these options."""
    if name not in _by_name:
        raise ValueError(f"estimator: '{name}' is not one of {', '.join(_by_name)}")
    return _by_name[name](**options)


def mmd(X, other, bandwidth=None, seed=0, mc_samples=4000):
    """MMD^2 with the Gaussian kernel ``exp(-|x - y|^2 / 2 h^2)``, as `sosrep mmd` computes it.

    other: a second sample (both in X's min-max coordinates; returns the V- and U-statistics
    "mmd2_v", "mmd2_u") or a fitted density estimator (X in its coordinates; returns "mmd2"
    and how it was computed, "method"). h: `bandwidth`, else the median pairwise distance of
    X's scaled rows ("bandwidth" in the result)."""
    if bandwidth is not None and (isinstance(bandwidth, (bool, complex))
                                  or not isinstance(bandwidth, (int, float, np.number))
                                  or np.iscomplexobj(bandwidth)):
        raise ValueError(f"bandwidth: must be None or a number, not {bandwidth!r}")
    seed = _integer(seed, "seed", 0, 2**64)
    mc_samples = _integer(mc_samples, "mc_samples", 1, 2**31, "a positive int")
    h = 0.0 if bandwidth is None else float(bandwidth)
    if h == 0.0 and bandwidth is not None:
        raise ValueError("bandwidth: is 0: give None (the median pairwise distance) or a number "
                         "in [1e-100, 1e100]")
    est = SosrepEstimator()
    if isinstance(other, SosrepEstimator):
        other._check_fitted()
        return _sosrep.mmd_model(est._array(X), other.model_, h, seed, mc_samples)
    return _sosrep.mmd_samples(est._array(X), est._array(other, "Y"), h, seed)


def q_function(expression):
    """q as `sosrep ratio --q-function` reads it, for RatioEstimator.fit(X, q=...): an
    expression of x1..xd in X's units (+ - * / ^, exp, log, sqrt, sin, cos, abs, pi),
    evaluated by the command line's own parser, so the ratio equals the command's bit for bit.
    The expression is checked at the first call, against the columns of X."""
    text = str(expression)

    def q(X):
        return _sosrep.evaluate_expression(text, np.asarray(X, dtype=np.float64))

    q.expression = text
    return q


def load(path):
    """A fitted estimator from a model file written by `sosrep fit --model-out`, the app or
    `save`."""
    # A str, bytes or os.PathLike path (str() of bytes would open the file "b'...'").
    model = _sosrep.load(os.fsdecode(os.fspath(path)))
    settings = model.settings
    cls = _by_name[model.estimator]
    # The file keeps every option as text: each becomes the type its keyword takes, so that
    # get_params() of a loaded model equals the fitted one's ('15' was returned for grid=15).
    params = {keyword_of(k): _python_value(cls._option_specs[k], v)
              for k, v in settings.items() if k in cls._option_names}
    if model.purpose_asked and "purpose" in params:
        # Fitted under purpose='auto': the file holds the density model it resolved to; the
        # parameter comes back as it was set (a loaded model scores anomalies with the density
        # it holds, as the FitWarning of save said; refit for the anomaly purpose's model).
        params["purpose"] = model.purpose_asked
    kept = model.random_state
    if kept is not None and "random_state" in cls._get_param_names():
        params["random_state"], params["seed"] = kept[0], _python_value(
            cls._option_specs["seed"], kept[1])
    est = cls(**params)
    est._set_model(model)
    for message in model.warnings:
        # A degenerate fit says so when its file is used later, as `sosrep score` does.
        warnings.warn(f"{path}: the fit warned: {message}", FitWarning, stacklevel=2)
    threshold = model.outlier_threshold
    if isinstance(est, DetectorEstimator) and threshold is not None:
        # Saved by this package's fit; files of the command line and the app have none, and
        # decision_function and predict then say so rather than guess a threshold.
        est.contamination, est.offset_ = threshold
    return est


__all__ = ["Estimator", "FitWarning", "estimators", "load", "mmd", "q_function"] + sorted(_classes)
