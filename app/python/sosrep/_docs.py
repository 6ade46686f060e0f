# SPDX-License-Identifier: MIT
"""numpydoc docstrings of the generated classes, from the core's option tables.

A class's Parameters section is its options (type, choices, default, range and help as the
registry holds them), so `help(sosrep.SOSREP)`, Sphinx and an IDE's tooltip say what the
command line's --help says; the Attributes and Examples sections depend on what the class is
(a density, a detector or a ratio).
"""
import re
import textwrap

_KINDS = {
    "density": "a normalized density: score_samples gives log p, score the total log-likelihood",
    "pre-density": "a density p = f^2, with the Gaussian kernel (the default) normalized in "
                   "closed form: score_samples gives log p per unit of the data's columns "
                   "(``log_normalizer_`` is log Z); with the other kernels it is unnormalized, "
                   "log f^2 up to a constant, whose ranking and shape are what it is for",
    "normality score": "an anomaly detector: score_samples gives a normality score (higher is "
                       "more typical), not a density",
    "ratio": "a density ratio q/p: fit on a sample of p and one of q (or q's density), then "
             "ratio(X)",
}


def _sentence(text):
    """The text with its first letter upper-cased and the rest as written (str.capitalize
    lower-cased "Gaussian" and "Z")."""
    return text[:1].upper() + text[1:]


# A fitted attribute's name in prose, in backticks: reST reads a bare `offset_` as a link.
_ATTRIBUTE_NAME = re.compile(r"(?<![`\w.])([a-z][a-z_]*[a-z]_)(?![`\w])")


def _wrap(text, indent=4):
    text = _ATTRIBUTE_NAME.sub(r"`\1`", text)
    return textwrap.fill(text, width=96, initial_indent=" " * indent,
                         subsequent_indent=" " * indent, break_on_hyphens=False)


def _number(value):
    return f"{value:g}"


def _type_line(keyword, option, default):
    """numpydoc's `name : type, default=value` line of an option."""
    kind = option["type"]
    choices = option.get("choices") or []
    if kind == "choice":
        spec = "{" + ", ".join(f'"{c}"' for c in choices) + "}"
    elif kind == "real_or_choice":
        spec = "float or " + " or ".join(f'"{c}"' for c in choices)
    elif kind == "integer":
        spec = "int"
    elif kind == "seed":
        spec = "int"
    else:
        spec = "float"
    return f"{keyword} : {spec}, default={default!r}"


def _range(option):
    kind = option["type"]
    if kind not in ("integer", "real", "real_or_choice"):
        return ""
    lo, hi = option["minimum"], option["maximum"]
    if lo <= -1e308 and hi >= 1e308:
        return ""
    if kind == "integer" and hi >= 2**31 - 1:  # a C int's limit says no more than >= lo
        hi = 1e308
    if hi >= 1e308:
        return f" Range: >= {_number(lo)}." if kind == "integer" else f" Range: > {_number(lo)}."
    return f" Range: [{_number(lo)}, {_number(hi)}]."


_COMMON = {
    "random_state": ("random_state : int, RandomState, Generator or None, default=None",
                     "scikit-learn's name for the seed: None keeps `seed`; an int, a "
                     "RandomState or a Generator draws the seed from it (recorded in the model "
                     "file)."),
    "n_jobs": ("n_jobs : int or None, default=None",
               "Threads of the core's loops for this estimator's calls (scikit-learn's "
               "meaning): None is 1, or the n_jobs of an active joblib parallel_backend; -1 "
               "every core, -2 all but one; k > 0 that many."),
    "verbose": ("verbose : int, default=0",
                "1: the fit's stage and percentage on stderr; 0: quiet. fit(progress=f) "
                "calls f(stage, done, total) instead (for example a tqdm bar: total is the "
                "same in every call and done reaches it when the fit completes)."),
    "contamination": ("contamination : float in (0, 0.5] or \"auto\", default=0.1",
                      "The share of new rows predict flags: offset_ is this quantile of the "
                      "normality scores of rows the model did not fit (\"auto\": 0.1)."),
    "novelty": ("novelty : bool, default=True",
                "True: the threshold is for new rows (LocalOutlierFactor(novelty=True)); "
                "False: the training rows' own quantile, and fit_predict labels them."),
}

_ATTRIBUTES = {
    "all": [
        ("model_", "the fitted model (the core's; `save` writes it as a model file)"),
        ("n_features_in_ : int", "columns seen by fit"),
        ("feature_names_in_ : ndarray of str",
         "the DataFrame's column names, when fit was given a DataFrame with string names"),
        ("summary_ : dict", "what the command line's JSON summary holds (status, purpose, "
                            "selection_rule, seed, warnings and more); for an estimator with a "
                            "purpose, ``summary_[\"anomaly_model\"]`` says which model anomaly "
                            "scores come from and why (used, note, and that model's l, rule "
                            "and scaling)"),
    ],
    "density": [
        ("length_scale_ : float", "the fitted length scale (tuned when length_scale=\"auto\")"),
        ("fd_curve_ : dict", "the length-scale sweep: length scales, Fisher divergence per "
                             "scale, held-out log-likelihood (NaN where not computed)"),
        ("anomaly_model_", "with a purpose left at 'auto', where the purpose decides something "
                           "(a tuned l's rule or the scaling): the anomaly purpose's model, "
                           "which anomaly_score, decision_function and predict use "
                           "(``summary_[\"anomaly_model\"]`` says why)"),
        ("offset_ : float", "the outlier threshold of decision_function (see contamination)"),
        ("decision_scores_ : ndarray", "PyOD's: anomaly scores of the fitted rows, each from a "
                                       "model that did not fit it (a 5-fold cross-fit)"),
        ("threshold_ : float", "PyOD's: the (1 - contamination) quantile of decision_scores_"),
        ("labels_ : ndarray of int", "PyOD's: 1 where decision_scores_ > threshold_ (the "
                                     "contamination share of the fitted rows)"),
    ],
    "detector": [
        ("offset_ : float", "the outlier threshold of decision_function (see contamination)"),
        ("decision_scores_ : ndarray", "PyOD's: anomaly scores of the fitted rows, each from a "
                                       "model that did not fit it (a 5-fold cross-fit)"),
        ("threshold_ : float", "PyOD's: the (1 - contamination) quantile of decision_scores_"),
        ("labels_ : ndarray of int", "PyOD's: 1 where decision_scores_ > threshold_ (the "
                                     "contamination share of the fitted rows)"),
    ],
    "ratio": [
        ("length_scale_ : float", "the fitted length scale"),
        ("weights_ : ndarray", "the ratio at the rows of p fitted on: importance weights"),
        ("ess_ : float", "the weights' effective sample size"),
        ("weight_summary_ : dict", "ess, its fraction of the rows and the negative share"),
    ],
}

_EXAMPLES = {
    "density": """>>> import numpy as np, sosrep
>>> X = np.random.default_rng(0).normal(size=(300, 2))
>>> est = sosrep.{cls}({opts}).fit(X)
>>> est.score_samples(X[:3]).shape
(3,)
>>> bool(est.predict(np.array([[0.0, 0.0], [8.0, 8.0]]))[1] == -1)
True""",
    "detector": """>>> import numpy as np, sosrep
>>> X = np.random.default_rng(0).normal(size=(300, 2))
>>> det = sosrep.{cls}({opts}).fit(X)
>>> scores = det.anomaly_score(np.array([[0.0, 0.0], [8.0, 8.0]]))
>>> bool(scores[1] > scores[0])
True""",
    "ratio": """>>> import numpy as np, sosrep
>>> rng = np.random.default_rng(0)
>>> Xp, Xq = rng.normal(size=(300, 1)), rng.normal(0.5, 1.0, size=(300, 1))
>>> r = sosrep.{cls}({opts}).fit(Xp, Xq)
>>> r.ratio(np.array([[-1.0], [1.0]])).shape
(2,)""",
}

# Options that keep an example quick (the defaults tune over a sweep).
_EXAMPLE_OPTIONS = {"sosrep": "length_scale=0.3", "kde": "length_scale=0.3",
                    "sos-mmd": "length_scale=0.5"}


def class_doc(entry, keywords, cls, role, extra):
    """The numpydoc docstring of the class of registry entry `entry`.

    keywords: the constructor keyword of each option; role: "density", "detector" or "ratio";
    extra: the keywords the class has beyond the options (random_state, n_jobs, ...)."""
    lines = [entry["title"] + ".", "", _sentence(_KINDS.get(entry["kind"], entry["kind"]))
             + ".", "", "Parameters", "----------"]
    for option in entry["options"]:
        keyword, default = keywords[option["name"]]
        lines.append(_type_line(keyword, option, default))
        text = option["help"].rstrip(".")
        lines.append(_wrap(text[:1].upper() + text[1:] + "." + _range(option)))
    for keyword in extra:
        head, text = _COMMON[keyword]
        lines.append(head)
        lines.append(_wrap(text))
    lines += ["", "Attributes", "----------"]
    for head, text in _ATTRIBUTES["all"] + _ATTRIBUTES[role]:
        lines.append(head if " : " in head else head + " : object")
        lines.append(_wrap(text[0].upper() + text[1:] + "."))
    lines += ["", "See Also", "--------",
              "sosrep.load : a fitted estimator from a model file.",
              "sosrep.Estimator : an estimator by its registry name.",
              "", "Examples", "--------",
              _EXAMPLES[role].format(cls=cls, opts=_EXAMPLE_OPTIONS.get(entry["name"], ""))]
    return "\n".join(lines)
