# SPDX-License-Identifier: MIT
"""Scoring beyond one machine: a fitted model is small and scoring goes by rows.

    import dask.array as da, sosrep.dask
    scores = sosrep.dask.score(est, da.from_zarr(...))      # lazy; .compute() runs it

The model is put into the task graph once (a few hundred kB: the model file) and every
partition is scored where it lies, in parallel: on the threads of one machine, or on the
workers of a dask.distributed cluster (`Client("scheduler:8786")`, each worker with this
package importable). Fitting stays on one machine: fit on a sample, or with Nystroem landmarks
(`backend="nystrom"`), then score everything here.
"""
import numpy as np


def _score_block(block, est):
    return est.score_samples(np.asarray(block))


def score(model, data):
    """score_samples of every row of `data` (a dask array of rows x features, or a dask
    DataFrame of the feature columns), lazily: a dask array (or Series, index kept)."""
    import dask
    import dask.array as da

    model._check_fitted()
    shared = dask.delayed(model, pure=True, traverse=False)  # one copy in the graph
    if hasattr(data, "map_partitions"):  # a dask DataFrame
        import pandas as pd

        def frame(part, est):
            return pd.Series(est.score_samples(part.to_numpy(dtype=np.float64)),
                             index=part.index, name="score")

        return data.map_partitions(frame, shared, meta=("score", "f8"))
    if not isinstance(data, da.Array):
        raise TypeError("data: expected a dask array or a dask DataFrame, got "
                        f"{type(data).__name__} (score a NumPy array with score_samples)")
    if data.ndim != 2:
        raise ValueError(f"data: expected a 2-D array (rows x columns), got {data.ndim}-D")
    if data.shape[1] != model.n_features_in_:
        raise ValueError(f"data: has {data.shape[1]} columns, the model was fitted on "
                         f"{model.n_features_in_}")
    rows = data.rechunk({1: -1})  # every partition holds whole rows
    return rows.map_blocks(_score_block, shared, drop_axis=1, dtype=np.float64,
                           meta=np.empty((0,), dtype=np.float64))
