# SPDX-License-Identifier: MIT
"""Estimator classes generated from the core's registry and option tables.

Every registered estimator becomes a scikit-learn estimator whose constructor keywords are its
options (the same names as in model files and the command line's --help, with '_'), so a new
plug-in appears here without Python code. Fits go through the core's one fit route, the one
`sosrep fit` uses (purpose=auto is the density there too), and the fitted model is the command
line's and the app's model file: scores are equal bit for bit.
"""
import contextlib
import errno
import inspect
import keyword
import os
import warnings

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.utils.metaestimators import available_if

from . import _sosrep
from ._docs import class_doc

# Names that do not follow from the registry name by the general rule (upper case).
_CLASS_NAMES = {"sos-mmd": "KernelSoS", "iforest": "IForest", "sosrep-ratio": "SOSREPRatio"}


def class_name(estimator):
    """The Python class name of a registry name: 'sosrep' -> 'SOSREP', 'sos-mmd' -> 'KernelSoS'."""
    if estimator in _CLASS_NAMES:
        return _CLASS_NAMES[estimator]
    return "".join(part.upper() for part in estimator.replace("_", "-").split("-"))


def keyword_of(option_name):
    """The constructor keyword of an option: its name, except where that is a Python keyword
    ('lambda' -> 'lam'). Not PEP 8's 'lambda_': scikit-learn takes attributes ending in '_'
    for fitted ones, and check_is_fitted would call an unfitted estimator fitted."""
    name = option_name.replace("-", "_")
    if name == "lambda":
        return "lam"
    return name + "_value" if keyword.iskeyword(name) else name


def _python_value(option, text):
    """An option's canonical text as the Python value its keyword takes (int, float or str)."""
    kind = option["type"]
    if kind in ("integer", "seed"):
        return int(text)
    if kind == "real":
        return float(text)
    if kind == "real_or_choice" and text not in option["choices"]:
        return float(text)
    return text


def _python_default(option):
    return _python_value(option, option["default"])


def _option_text(value):
    """An option value as the core's canonical text reads it."""
    if isinstance(value, (bool, np.bool_)):
        raise TypeError("a boolean is not an option value")
    if isinstance(value, (float, np.floating)):
        return repr(float(value))
    return str(value)


def _integer(value, name, low, high, what="an int"):
    """An int in [low, high), checked here so that the message names it: the extension's own
    TypeError listed every argument of the call, whole arrays included (issue 52)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)) \
            or not low <= value < high:
        bound = f"2**{high.bit_length() - 1}" if high & (high - 1) == 0 else str(high)
        raise ValueError(f"{name}: must be {what} in [{low}, {bound}), not {value!r}")
    return int(value)


def _seed_of(random_state):
    """scikit-learn's random_state as the core's seed: an int as it is, a RandomState or a
    Generator drawn from (as scikit-learn's estimators draw theirs, so the state advances)."""
    if isinstance(random_state, (bool, np.bool_)):
        raise TypeError("random_state: must be None, an int, a numpy RandomState or Generator")
    if isinstance(random_state, (int, np.integer)):
        if random_state < 0:
            raise ValueError(f"random_state: must be non-negative, not {random_state}")
        return _integer(random_state, "random_state", 0, 2**64)  # the core's seeds are 64-bit
    if isinstance(random_state, np.random.RandomState):
        return int(random_state.randint(np.iinfo(np.int32).max))
    if isinstance(random_state, np.random.Generator):
        return int(random_state.integers(np.iinfo(np.int32).max))
    raise TypeError(f"random_state: must be None, an int, a numpy RandomState or Generator, "
                    f"not {type(random_state).__name__}")


def _threads_of(n_jobs):
    """scikit-learn's n_jobs as a thread count: None is 1, or the n_jobs of an active
    joblib.parallel_backend context; -1 every core, -2 all but one, and so on."""
    if n_jobs is None:
        try:
            from joblib.parallel import get_active_backend
            n_jobs = get_active_backend()[1] or 1
        except ImportError:
            n_jobs = 1
    if isinstance(n_jobs, (bool, np.bool_)) or not isinstance(n_jobs, (int, np.integer)) \
            or n_jobs == 0 or abs(n_jobs) >= 2**31:
        raise ValueError(f"n_jobs: must be None or a non-zero int below 2**31 in size, "
                         f"not {n_jobs!r}")
    cores = _sosrep.available_cores()
    return int(n_jobs) if n_jobs > 0 else max(1, cores + 1 + int(n_jobs))


@contextlib.contextmanager
def _thread_scope(n_jobs):
    """The core's OpenMP threads for this call, on this Python thread only. With more than
    one, the runtime may use fewer while the machine is busy (OpenMP's dynamic adjustment):
    a thread that shares its core with another process would hold up every barrier."""
    threads = _threads_of(n_jobs)
    old = _sosrep.set_threads(threads, threads > 1)
    try:
        yield
    finally:
        _sosrep.set_threads(*old)


def _feature_names(X):
    """A DataFrame's column names when they are all strings (scikit-learn's rule), else
    None."""
    columns = getattr(X, "columns", None)
    if columns is None or not hasattr(X, "iloc"):
        return None
    names = np.asarray(columns, dtype=object)
    if len(names) == 0 or not all(isinstance(n, str) for n in names):
        return None
    return names


def _name_list(names, most=5):
    """scikit-learn's list of names in its feature-name messages."""
    out = "".join(f"- {n}\n" for n in names[:most])
    return out + ("- ...\n" if len(names) > most else "")


class _StderrProgress:
    """verbose: the fit's stage and percentage on stderr, as a tqdm bar when tqdm is installed,
    else one line rewritten in place (progress's contract: one total, done never decreasing,
    done == total once, when the fit is complete)."""

    def __init__(self, name):
        self.name = name
        self.bar = None
        try:
            import tqdm
            self.tqdm = tqdm.tqdm
        except ImportError:
            self.tqdm = None

    def __call__(self, stage, done, total):
        import sys
        if self.tqdm is not None:
            if self.bar is None:
                self.bar = self.tqdm(total=total, desc=self.name, unit="", file=sys.stderr)
            self.bar.set_postfix_str(stage, refresh=False)
            self.bar.update(done - self.bar.n)
            if done >= total:
                self.bar.close()
            return
        end = "\n" if done >= total else ""
        print(f"\r{self.name}: {stage} {100 * done // max(total, 1):3d} %\x1b[K", end=end,
              file=sys.stderr, flush=True)


class SosrepEstimator(BaseEstimator):
    """Common behaviour of the generated classes (see the class of each estimator)."""

    _estimator = None  # the registry name
    _kind = None
    _option_names = ()
    _option_specs = {}

    def _options(self):
        options = {name: _option_text(getattr(self, keyword_of(name)))
                   for name in self._option_names}
        if "seed" in options and getattr(self, "random_state", None) is not None:
            options["seed"] = _option_text(_seed_of(self.random_state))
        return options

    def _check_fitted(self):
        if not hasattr(self, "model_"):
            from sklearn.exceptions import NotFittedError

            raise NotFittedError(
                f"This {type(self).__name__} instance is not fitted yet: call fit first")

    def _array(self, X, name="X"):
        """X as a NumPy array of float64 or float32, as the core reads it (it refuses other
        shapes and NaN or infinite values itself, in the command line's words)."""
        if hasattr(X, "toarray") and hasattr(X, "nnz"):
            raise TypeError(f"{name}: sparse input is not supported: pass {name}.toarray()")
        if hasattr(X, "to_numpy"):
            X = X.to_numpy()
        X = np.asarray(X)
        if X.dtype.kind == "c":
            raise ValueError(f"{name}: Complex data not supported: expected real numbers")
        if X.dtype.kind == "f":
            # Compared by value: big-endian arrays (from another machine's file, or
            # np.dtype('>f8')) are byte-swapped; float16 and long double become float64, as
            # scikit-learn's check_array makes them.
            if not X.dtype.isnative:
                X = X.astype(X.dtype.newbyteorder("="))
            if X.dtype.itemsize not in (4, 8):
                X = X.astype(np.float64)
        elif X.dtype not in (np.float64, np.float32):
            if X.dtype.kind in "iub":
                X = X.astype(np.float64)
            elif X.dtype.kind == "O":
                try:
                    X = X.astype(np.float64)
                except TypeError as e:
                    raise TypeError(f"{name}: values are not all numbers ({e})") from None
                except ValueError as e:
                    raise ValueError(f"{name}: values are not all numbers ({e})") from None
            else:
                raise TypeError(f"{name}: expected float64 or float32 values, got {X.dtype}")
        if X.ndim == 2 and X.shape[1] == 0:
            raise ValueError(f"{name}: 0 feature(s) (shape={X.shape}) while a minimum of 1 is "
                             "required.")
        return X

    def _fit_model(self, X, second=None, progress=None, q_values=None, sample_weight=None,
                   q_density=None):
        names = _feature_names(X)
        X = self._array(X)
        if X.ndim == 2 and X.shape[0] < 2:
            raise ValueError(f"X: {X.shape[0]} sample(s): a fit needs at least 2 rows")
        if sample_weight is not None:
            from sklearn.utils.validation import _check_sample_weight

            # A list, Series or scalar as scikit-learn takes them, shape checked in its words;
            # the core refuses negative, infinite or all-zero weights naming sample_weight.
            try:
                sample_weight = _check_sample_weight(sample_weight, X, dtype=np.float64)
            except (TypeError, ValueError) as e:
                if "omplex" not in str(e):  # "Complex data", "not 'complex'"
                    raise
                # scikit-learn's words print the whole array after them.
                raise ValueError("sample_weight: complex values are not weights: expected real "
                                 "numbers") from None
        if progress is None and getattr(self, "verbose", 0):
            progress = _StderrProgress(type(self).__name__)
        with _thread_scope(self.n_jobs):
            model = _sosrep.fit(self._estimator, X, self._options(),
                                None if second is None else self._array(second, "q"),
                                progress, q_values, None if names is None else list(names),
                                sample_weight, q_density or "")
        random_state = getattr(self, "random_state", None)
        if isinstance(random_state, (int, np.integer)):
            # The file keeps the seed it gave and the seed option it stood in for: load()
            # gives back both parameters (a RandomState or Generator comes back as the seed it
            # drew, all clone() needs to refit alike).
            model.record_random_state(int(random_state), _option_text(self.seed))
        self._set_model(model)
        for message in model.warnings:
            # What the command line prints to stderr and the app shows in its banner.
            warnings.warn(message, FitWarning, stacklevel=3)
        if model.anomaly is not None:
            # The anomaly purpose's own model (its own rule, and maybe its own scaling and
            # sweep) warns on its own; what both say is said once.
            for message in model.anomaly.warnings:
                if message not in model.warnings:
                    warnings.warn(f"the anomaly purpose's model: {message}", FitWarning,
                                  stacklevel=3)
        return self

    def _set_model(self, model):
        self.model_ = model
        names = np.asarray(model.columns, dtype=object)
        if list(names) != [f"x{j + 1}" for j in range(len(names))]:
            # Names from a DataFrame, or a file's header (x1..xn: an array's, no names).
            self.feature_names_in_ = names
        else:
            self.__dict__.pop("feature_names_in_", None)
        if model.anomaly is not None:
            # purpose='auto': the anomaly purpose's model, from the same sweep, for the
            # anomaly-side methods (the density stays model_).
            self.anomaly_model_ = model.anomaly
        else:
            self.__dict__.pop("anomaly_model_", None)
        self.n_features_in_ = model.n_features
        if model.length_scale > 0:  # a kernel's; a detector without one has none
            self.length_scale_ = model.length_scale
        else:
            self.__dict__.pop("length_scale_", None)
        self.fd_curve_ = np.array(
            [tuple(p) for p in model.fd_curve],
            dtype=[("length_scale", "f8"), ("fd", "f8"), ("invalid_points", "i8"),
                   ("iterations", "i8"), ("kernel_products", "i8"),
                   ("held_out_log_likelihood", "f8"), ("status", "U16")])
        summary = model.summary
        if "log_normalizer" in summary:
            self.log_normalizer_ = summary["log_normalizer"]
        note = model.anomaly_note
        if not note and model.purpose_asked == "auto":
            note = ("purpose='auto', read from a file, which holds the density: anomaly scores "
                    "are minus this model's log values")
        if note:
            # Which model anomaly_score, decision_function and predict use, and why.
            summary["anomaly_model"] = {"used": model.anomaly is not None, "note": note}
            if model.anomaly is not None:
                a = model.anomaly.summary
                summary["anomaly_model"].update(
                    {k: a[k] for k in ("purpose", "selection_rule", "selection_reason",
                                       "scaling") if k in a})
                if model.anomaly.length_scale > 0:
                    summary["anomaly_model"]["length_scale"] = model.anomaly.length_scale
        self.summary_ = summary

    def _by_name(self, X):
        """X's columns as the model was fitted on them: a DataFrame's by name (reordered back
        when only the order differs; missing or unknown names are a ValueError in
        scikit-learn's words), with scikit-learn's warnings when only one side has names."""
        fitted = self.__dict__.get("feature_names_in_")
        names = _feature_names(X)
        cls = type(self).__name__
        if fitted is not None and names is not None:
            if list(names) == list(fitted):
                return X
            if sorted(names) == sorted(fitted):
                return X[list(fitted)]
            message = "The feature names should match those that were passed during fit.\n"
            unseen = [n for n in names if n not in set(fitted)]
            missing = [n for n in fitted if n not in set(names)]
            if unseen:
                message += "Feature names unseen at fit time:\n" + _name_list(unseen)
            if missing:
                message += "Feature names seen at fit time, yet now missing:\n" + \
                    _name_list(missing)
            if not unseen and not missing:
                message += "Feature names must be unique and as many as at fit time.\n"
            raise ValueError(message)
        if fitted is not None and names is None and hasattr(self, "model_"):
            warnings.warn(f"X does not have valid feature names, but {cls} was fitted with "
                          "feature names", UserWarning, stacklevel=3)
        elif fitted is None and names is not None and hasattr(self, "model_"):
            warnings.warn(f"X has feature names, but {cls} was fitted without feature names",
                          UserWarning, stacklevel=3)
        return X

    def _scoring_model(self):
        """The model anomaly scores and decisions come from: the anomaly purpose's under
        purpose='auto', else `model_`."""
        return self.__dict__.get("anomaly_model_") or self.model_

    def save(self, path):
        """Writes the command line's and the app's model file (JSON), atomically; a detector's
        outlier threshold is saved with it. Under purpose='auto' the file holds the density
        (`model_`), as `sosrep fit` writes it: its anomaly scores are the density's, not those
        of `anomaly_model_` (fit with purpose='anomaly' to save an anomaly model)."""
        self._check_fitted()
        if "anomaly_model_" in self.__dict__:
            warnings.warn("save: the file holds the density model (purpose='auto' picks the "
                          "density for it); anomaly_score, decision_function and predict of "
                          "the loaded model will be the density's. Fit with purpose='anomaly' "
                          "to save the anomaly model.", FitWarning, stacklevel=2)
            if self.model_.outlier_threshold is None:
                try:  # the density's own threshold, so the loaded model predicts
                    with _thread_scope(self.n_jobs):
                        self.model_.held_out_threshold(_contamination(self.contamination))
                except ValueError:
                    pass
        elif isinstance(self, DetectorEstimator):
            try:
                self.offset_
            except ValueError:
                pass
        _check_save_path(path)
        self.model_.save(str(path))

    def __getstate__(self):
        if "model_" in self.__dict__ and isinstance(self, DetectorEstimator):
            try:
                self.offset_  # a pickled detector predicts as this one: its threshold goes along
            except ValueError:
                pass  # a model read from a file without a threshold
        state = dict(self.__dict__)
        for key in ("model_", "anomaly_model_"):
            if key in state:
                state[key] = state[key].to_json()
        return state

    def __setstate__(self, state):
        model = state.pop("model_", None)
        anomaly = state.pop("anomaly_model_", None)
        self.__dict__.update(state)
        if anomaly is not None:
            self.anomaly_model_ = _sosrep.from_json(anomaly, "<pickle>")
        if model is not None:
            model = _sosrep.from_json(model, "<pickle>")
            # A state edited or pickled from another class must not give, say, a KDE that holds
            # an isolation forest: its parameters and its scores would disagree.
            if self._estimator is not None and model.estimator != self._estimator:
                raise ValueError(f"the pickled model is a {model.estimator!r} model, not a "
                                 f"{type(self).__name__} ({self._estimator!r})")
            self.model_ = model


class FitWarning(UserWarning):
    """A fit that ran but whose numbers need a look: a length scale far below the rows'
    spacing, a tuned value at the edge of its grid, no stable minimum of the Fisher divergence,
    a solver that clamped values. The same words as the command line's warnings."""


def _contamination(value):
    """The share of rows predict flags: 'auto' (PyOD's default, 0.1) or a number in (0, 0.5]."""
    if isinstance(value, str) and value == "auto":
        return 0.1
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.number)) \
            or not 0.0 < float(value) <= 0.5:
        raise ValueError(f"contamination: must be 'auto' or a number in (0, 0.5], not {value!r}")
    return float(value)


class DetectorEstimator(SosrepEstimator):
    """fit / score_samples (a normality score: higher is more typical), PyOD's anomaly_score
    and scikit-learn's outlier API. No score(): a normality score has no likelihood."""

    def fit(self, X, y=None, progress=None, **fit_params):
        """Fits on the rows of X.

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_features)
            Training rows (a DataFrame's column names are kept: `feature_names_in_`).
        y : ignored
        progress : callable, optional
            progress(stage, done, total), called as the fit goes (see docs/python.md). Ctrl+C
            cancels the fit within one solver step (KeyboardInterrupt).

        Returns
        -------
        self
        """
        if "sample_weight" in fit_params:
            weighting = [c.__name__ for c in _WEIGHTED_CLASSES]
            raise ValueError(
                f"sample_weight: {type(self).__name__} cannot weight its rows (the estimators "
                f"that can: {', '.join(weighting)}); repeat rows instead, or fit one of those")
        if fit_params:
            raise TypeError(f"fit() got an unexpected keyword argument "
                            f"{next(iter(fit_params))!r}")
        return self._fit_detector(X, progress)

    def _fit_detector(self, X, progress, sample_weight=None):
        _contamination(self.contamination)  # refused before the fit, not after it
        self.__dict__.pop("_offset", None)
        self._fit_model(X, progress=progress, sample_weight=sample_weight)
        if not self.novelty:
            # Outlier detection on the training rows (scikit-learn's convention): the threshold
            # is the contamination quantile of their own scores. New rows score lower than the
            # rows a model fitted, so with this threshold predict flags more than that share of
            # new inliers: novelty=True (the default) is for new rows.
            scoring = self._scoring_model()
            c = _contamination(self.contamination)
            # Weighted rows count by their weight (the core's weighted quantile, NumPy's for
            # equal weights).
            w = np.empty(0) if sample_weight is None else \
                np.asarray(sample_weight, dtype=np.float64)
            self._offset = _sosrep.outlier_quantile(scoring.log_values(self._array(X)), c, w)
            scoring.outlier_threshold = (c, self._offset)
            if scoring is not self.model_:
                # The density's own, for its model file (save): the same convention on its
                # scores.
                self.model_.outlier_threshold = (
                    c, _sosrep.outlier_quantile(self.model_.log_values(self._array(X)), c, w))
        return self

    @property
    def offset_(self):
        """The outlier threshold: the `contamination` quantile of score_samples at rows the
        scoring model did not fit (a 5-fold cross-fit at the fitted length scale, or the
        anomaly rule's own validation rows), computed on first use. The training rows' own
        scores would be the wrong reference: each sits on its own kernel bump, and a threshold
        from them flags most new inliers."""
        if "_offset" in self.__dict__:  # novelty=False, or set (a loaded model's)
            return self._offset
        self._check_fitted()
        # The model keeps the held-out values once computed: no attribute of this object changes
        # (scikit-learn checks that predict leaves __dict__ alone).
        with _thread_scope(self.n_jobs):
            offset, _, _ = self._scoring_model().held_out_threshold(
                _contamination(self.contamination))
        return float(offset)

    @offset_.setter
    def offset_(self, value):
        self._offset = float(value)

    def score_samples(self, X):
        """log p at the rows of X: higher is more typical.

        The log density per unit of X's own columns; the log pre-density for a pre-density, the
        normality score for a detector. A row's value does not depend on the rows scored with
        it.

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        self._check_fitted()
        X = self._array(self._by_name(X))
        with _thread_scope(self.n_jobs):
            return self.model_.log_values(X)

    def _normality(self, X):
        """The scoring model's values at X: score_samples, or under purpose='auto' the anomaly
        purpose's normality score."""
        self._check_fitted()
        X = self._array(self._by_name(X))
        with _thread_scope(self.n_jobs):
            return self._scoring_model().log_values(X)

    @property
    def decision_scores_(self):
        """PyOD's attribute: anomaly scores of the rows fitted on (higher is more anomalous),
        each from a model that did not fit that row: a 5-fold cross-fit of the fitted model
        (at its length scale; under purpose='auto' the anomaly rule's members at theirs, ranked
        against the fold's held-out rows), computed on first use. In-sample scores would put
        every training row on its own kernel bump, below any new row's score. Not on a model
        read from a file, which keeps no rows."""
        self._check_fitted()
        with _thread_scope(self.n_jobs):
            return -self._scoring_model().cross_fitted_log_values()

    @property
    def threshold_(self):
        """PyOD's attribute: the (1 - `contamination`) quantile of `decision_scores_` (NumPy's
        linear interpolation, as PyOD takes it), so `labels_` flags the contamination share of
        the fitted rows. predict uses `offset_`, the threshold for new rows: the same
        cross-fit's quantile for one model, the anomaly rule's validation rows under
        purpose='auto'."""
        c = _contamination(self.contamination)
        return float(np.percentile(self.decision_scores_, 100.0 * (1.0 - c)))

    @property
    def labels_(self):
        """PyOD's attribute: 1 for the fitted rows whose `decision_scores_` exceed `threshold_`
        (the `contamination` share of them, to within a row), else 0. predict gives
        scikit-learn's +1 / -1 for any rows."""
        scores = self.decision_scores_
        c = _contamination(self.contamination)
        return (scores > np.percentile(scores, 100.0 * (1.0 - c))).astype(int)

    def anomaly_score(self, X):
        """Anomaly scores of the rows of X: higher is more anomalous (PyOD's convention).

        Minus score_samples, except under purpose='auto' (the default) where the purpose
        decides something (the rule of a tuned length scale, or the scaling): there it is minus
        the anomaly purpose's normality score (`anomaly_model_`, fitted from the same sweep;
        README, "Choosing l"). `summary_["anomaly_model"]` says which model scores and why.
        That rule was chosen on ADBench sets whose training rows hold the anomalies (the
        unsupervised setting); trained on clean inliers, fit purpose='density': its score
        ranked better on Cardiotocography, annthyroid and landsat in 12 of 12 set-and-split
        pairs (by 0.01-0.04 AUC-ROC).

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        return -self._normality(X)

    def decision_function(self, X):
        """The normality score minus `offset_`: negative for outliers (scikit-learn's sign).

        PyOD's decision_function has the opposite sign (higher is more anomalous): that is
        anomaly_score here. The normality score is score_samples, or under purpose='auto' the
        anomaly purpose's (see anomaly_score): then, unlike scikit-learn's other detectors, it
        is not score_samples - `offset_`, because score_samples stays the density's log p.

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        self._check_fitted()
        try:
            offset = self.offset_
        except ValueError as e:
            # Why there is no threshold, as the threshold's own computation said it (a detector
            # fitted on one distinct row was told it came from a model file; issue 52).
            raise ValueError(
                f"decision_function: no outlier threshold: {e}; use score_samples or "
                "anomaly_score") from e
        return self._normality(X) - offset

    def predict(self, X):
        """+1 for inliers, -1 for outliers (decision_function below 0).

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_features)

        Returns
        -------
        ndarray of int, shape (n_samples,)
        """
        return np.where(self.decision_function(X) >= 0, 1, -1)

    def _training_labels(self):
        if self.novelty:
            raise AttributeError(
                "fit_predict is not available when novelty=True (the default: the threshold is "
                "for new rows, as LocalOutlierFactor(novelty=True)); use fit(X).predict(X_new), "
                "or novelty=False to label the training rows themselves")
        return True

    @available_if(_training_labels)
    def fit_predict(self, X, y=None):
        """novelty=False only: fits on X and labels its rows, the `contamination` share of
        them -1 (scikit-learn's outlier-detection convention)."""
        return self.fit(X).predict(X)


class DensityEstimator(DetectorEstimator):
    """A density estimator: the detector's methods, score() (the total log-likelihood) and
    sample()."""

    def _has_likelihood(self):
        """score() exists for a normalized density; a fitted pre-density or normality score
        (purpose="anomaly": a rank ensemble) has no likelihood, so scikit-learn's tools (for
        example GridSearchCV's default scoring) see no score there rather than a failing one."""
        model = self.__dict__.get("model_")
        if model is not None and model.kind != "density":
            raise AttributeError(
                f"{type(self).__name__} with these options gives a {model.kind}, not a "
                "normalized density: there is no log-likelihood (use score_samples)")
        return True

    @available_if(_has_likelihood)
    def score(self, X, y=None):
        """Total log-likelihood of the rows (a sum, as KernelDensity.score).

        Only for a normalized density (AttributeError otherwise).

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_features)
        y : ignored

        Returns
        -------
        float
        """
        self._check_fitted()
        return float(np.sum(self.score_samples(X)))

    def sample(self, n_samples=1, random_state=None):
        """Rows drawn from the fitted density, in X's units (KernelDensity.sample).

        Exact for every model that is a Gaussian mixture: KDE draws a row's kernel by its
        weight; SOSREP (p proportional to f^2) rejects from the squared field of the weights'
        magnitudes, g^2 >= f^2, keeping a point with probability f^2/g^2; kernel SoS from its
        mixture's positive part. Where the weights cancel so much that rejection would keep
        almost nothing (a default kernel SoS fit of 200 normal rows: 1 in 1.5 million), each
        coordinate is drawn from its conditional by inverting its CDF, still exactly. Laplace
        and SDO kernels raise ValueError: they have no mixture form.

        Parameters
        ----------
        n_samples : int, default=1
        random_state : int, RandomState, Generator or None, default=None
            None: NumPy's global state, as scikit-learn.

        Returns
        -------
        ndarray of shape (n_samples, n_features)
        """
        self._check_fitted()
        n_samples = _integer(n_samples, "n_samples", 1, 2**63, "a positive int")
        _check_fits_in_memory(n_samples, self.n_features_in_)
        seed = _seed_of(np.random.mtrand._rand if random_state is None else random_state)
        with _thread_scope(self.n_jobs):
            rows, _, _ = self.model_.sample(int(n_samples), seed)
        return rows


def _check_save_path(path):
    """The OSError that open(path, "w") would raise, before anything is written: a missing
    folder is FileNotFoundError, a folder IsADirectoryError, an unwritable folder
    PermissionError (the core's refusals name them too, as ValueError on the command line's
    terms)."""
    path = os.fspath(path)
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise FileNotFoundError(errno.ENOENT, f"save: the folder {folder} does not exist", path)
    if os.path.isdir(path):
        raise IsADirectoryError(errno.EISDIR, "save: a folder, not a file", path)
    if not os.access(folder, os.W_OK | os.X_OK):
        raise PermissionError(errno.EACCES, f"save: cannot write into the folder {folder}", path)


def _check_fits_in_memory(n_samples, n_features):
    """Refuses, before any work, a sample whose rows alone exceed the machine's memory
    (sample(10**12) ran into a MemoryError from the allocator, not naming n_samples)."""
    need = n_samples * n_features * 8
    try:
        have = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):  # no sysconf: the allocator will say
        return
    if need > have:
        raise ValueError(f"n_samples: {n_samples} rows of {n_features} columns need "
                         f"{need / 2**30:.3g} GiB, more than this machine's "
                         f"{have / 2**30:.3g} GiB of memory: draw fewer rows at a time")


class RatioEstimator(SosrepEstimator):
    """A density ratio r = q/p: fit on a sample of p and one of q, then r at any rows."""

    def fit(self, X, Y=None, q=None, progress=None, q_density=None):
        """Fits r = q/p with X a sample of p and Y one of q (Type I, the same columns), or
        with q a function giving q's density at rows (Type II, `sosrep ratio --q-function`'s
        case: q(X) is evaluated at the rows of X), or with Y and q_density, the name of a
        density estimator: q is its density fitted to Y at its defaults and this fit's seed,
        both samples in X's scaled coordinates (Type II, `sosrep ratio --q-density`). Sets
        `weights_` (r at the rows of X: importance weights), `ess_` and `weight_summary_`."""
        if (Y is None) == (q is None):
            raise ValueError(f"{type(self).__name__}: fit(X_p, X_q) needs a sample of q, or "
                             "fit(X_p, q=function) q's density as a function (one of them)")
        if q_density is not None and Y is None:
            raise ValueError(f"{type(self).__name__}: q_density={q_density!r} needs q's rows: "
                             "fit(X_p, X_q, q_density=...)")
        if q is not None:
            self._fit_model(X, progress=progress,
                            q_values=np.asarray(q(self._array(X)), dtype=np.float64))
        else:
            self._fit_model(X, second=Y, progress=progress, q_density=q_density)
        self.weights_ = self.ratio(X)
        self.weight_summary_ = _sosrep.weight_summary(self.weights_)
        self.ess_ = self.weight_summary_["ess"]
        for message in self.weight_summary_["warnings"]:
            warnings.warn(message, FitWarning, stacklevel=2)
        return self

    def ratio(self, X):
        """The estimated q/p at the rows of X (FIRE imposes no sign: values may be negative).

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        self._check_fitted()
        X = self._array(self._by_name(X))
        with _thread_scope(self.n_jobs):
            return self.model_.ratio(X)


_WEIGHTED_CLASSES = []  # the generated classes whose fit takes sample_weight


def _weighted_fit(self, X, y=None, sample_weight=None, progress=None):
    """Fits on the rows of X, each counted by its weight.

    Parameters
    ----------
    X : array-like or DataFrame of shape (n_samples, n_features)
        Training rows (a DataFrame's column names are kept: `feature_names_in_`).
    y : ignored
    sample_weight : array-like of shape (n_samples,), optional
        Non-negative row weights (KernelDensity's): the density is sum_i w_i k(x_i, .) / sum w,
        the length-scale tuning fits and validates with them (a weighted mean of the Fisher
        divergence), Scott and Silverman take the weighted spread and the effective size
        (sum w)^2 / sum w^2, and the outlier threshold is a weighted quantile. A row of weight 0
        is left out (the model equals the fit without it, up to the order of the tuning's
        folds); equal weights give the unweighted fit exactly.
    progress : callable, optional
        progress(stage, done, total), called as the fit goes (see docs/python.md). Ctrl+C
        cancels the fit within one solver step (KeyboardInterrupt).

    Returns
    -------
    self
    """
    return self._fit_detector(X, progress, sample_weight)


def _make_class(entry):
    options = [o for o in entry["options"]]
    params = [inspect.Parameter(keyword_of(o["name"]), inspect.Parameter.KEYWORD_ONLY,
                                default=_python_default(o)) for o in options]
    density = not entry["needs_second_sample"]
    if any(o["name"] == "seed" for o in options):
        # scikit-learn's name for it: None keeps `seed`; an int, RandomState or Generator wins.
        params.append(inspect.Parameter("random_state", inspect.Parameter.KEYWORD_ONLY,
                                        default=None))
    # scikit-learn's: threads of the core's OpenMP loops, for this estimator's calls only.
    params.append(inspect.Parameter("n_jobs", inspect.Parameter.KEYWORD_ONLY, default=None))
    # scikit-learn's: 1 prints the fit's progress to stderr (or pass fit(progress=...)).
    params.append(inspect.Parameter("verbose", inspect.Parameter.KEYWORD_ONLY, default=0))
    if density:
        params.append(inspect.Parameter("contamination", inspect.Parameter.KEYWORD_ONLY,
                                        default=0.1))
        params.append(inspect.Parameter("novelty", inspect.Parameter.KEYWORD_ONLY,
                                        default=True))
    names = tuple(o["name"] for o in options)

    def __init__(self, **kwargs):
        for p in params:
            setattr(self, p.name, kwargs.pop(p.name, p.default))
        if kwargs:
            unknown = ", ".join(sorted(kwargs))
            raise TypeError(f"{unknown}: not an option of {entry['name']} "
                            f"(its options: {', '.join(p.name for p in params)})")

    __init__.__signature__ = inspect.Signature(
        [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)] + params)
    if not density:
        base, role = RatioEstimator, "ratio"
    elif entry["kind"] == "normality score":
        base, role = DetectorEstimator, "detector"
    else:
        base, role = DensityEstimator, "density"
    keywords = {o["name"]: (keyword_of(o["name"]), _python_default(o)) for o in options}
    extra = [p.name for p in params[len(options):]]
    doc = class_doc(entry, keywords, class_name(entry["name"]), role, extra)
    attrs = {"__init__": __init__, "__doc__": doc, "_estimator": entry["name"],
             "_kind": entry["kind"], "_option_names": names, "__module__": "sosrep",
             "_option_specs": {o["name"]: o for o in options}}
    if density:
        attrs["_estimator_type"] = "outlier_detector"
    if density and entry["row_weights"]:
        attrs["fit"] = _weighted_fit
    cls = type(class_name(entry["name"]), (base,), attrs)
    if density and entry["row_weights"]:
        _WEIGHTED_CLASSES.append(cls)
    return cls


def make_classes():
    return {class_name(e["name"]): _make_class(e) for e in _sosrep.estimators()}
