# SPDX-License-Identifier: MIT
"""Scoring beyond one machine: a fitted model is small and scoring goes by rows::

    import dask.array as da, sosrep.dask
    scores = sosrep.dask.score(est, da.from_zarr(...))      # lazy; .compute() runs it
    flags = sosrep.dask.predict(est, frame)                  # a dask DataFrame: by column name

The model is put into the task graph once (a few hundred kB: the model file) and every
partition is scored where it lies, in parallel: on the threads of one machine, or on the
workers of a dask.distributed cluster (`Client("scheduler:8786")`, each worker with this
package importable). Columns are checked when the graph is built, not at .compute(): a dask
DataFrame's by name (as the estimator's own methods), an array's by count. Fitting stays on one
machine: fit on a sample, or with Nystroem landmarks (`backend="lowrank"`), then score
everything here.
"""
import warnings

import numpy as np


def _rows_of(model, data, method):
    """The lazy result of model.<method> on every row of data."""
    import dask
    import dask.array as da

    model._check_fitted()
    if not hasattr(model, method):
        raise AttributeError(f"{type(model).__name__} has no {method}")
    if method in ("decision_function", "predict"):
        model.offset_  # the threshold, computed once here, travels with the model
    shared = dask.delayed(model, pure=True, traverse=False)  # one copy in the graph
    if hasattr(data, "map_partitions"):  # a dask DataFrame
        import pandas as pd

        columns = list(model._by_name(data._meta).columns)  # refused now, not at .compute()
        if len(columns) != model.n_features_in_:
            raise ValueError(f"data: has {len(columns)} columns, the model was fitted on "
                             f"{model.n_features_in_}")
        dtype = "i8" if method == "predict" else "f8"

        named = hasattr(model, "feature_names_in_")  # else the warning was given once, above

        def frame(part, est):
            rows = part[columns] if named else part.to_numpy(dtype=np.float64)
            values = getattr(est, method)(rows)
            return pd.Series(values, index=part.index, name=method, dtype=dtype)

        return data.map_partitions(frame, shared, meta=(method, dtype))
    if not isinstance(data, da.Array):
        raise TypeError("data: expected a dask array or a dask DataFrame, got "
                        f"{type(data).__name__} (score a NumPy array with the estimator itself)")
    if data.ndim != 2:
        raise ValueError(f"data: expected a 2-D array (rows x columns), got {data.ndim}-D")
    if data.shape[1] != model.n_features_in_:
        raise ValueError(f"data: has {data.shape[1]} columns, the model was fitted on "
                         f"{model.n_features_in_}")
    dtype = np.int64 if method == "predict" else np.float64

    def block(rows, est):
        # An array has no names by nature: a model fitted on a DataFrame would warn per block.
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message="X does not have valid feature names")
            return getattr(est, method)(np.asarray(rows)).astype(dtype)

    rows = data.rechunk({1: -1})  # every partition holds whole rows
    return rows.map_blocks(block, shared, drop_axis=1, dtype=dtype,
                           meta=np.empty((0,), dtype=dtype))


def score(model, data):
    """score_samples of every row of `data` (a dask array of rows x features, or a dask
    DataFrame with the model's columns), lazily: a dask array (or Series, index kept)."""
    return _rows_of(model, data, "score_samples")


def anomaly_score(model, data):
    """anomaly_score (higher: more anomalous) of every row, lazily."""
    return _rows_of(model, data, "anomaly_score")


def decision_function(model, data):
    """decision_function (negative: outlier) of every row, lazily; the threshold is computed
    once, when the graph is built."""
    return _rows_of(model, data, "decision_function")


def predict(model, data):
    """predict (+1 inlier, -1 outlier) of every row, lazily."""
    return _rows_of(model, data, "predict")


def ratio(model, data):
    """A density-ratio estimator's q/p at every row, lazily."""
    return _rows_of(model, data, "ratio")
