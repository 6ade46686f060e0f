# SPDX-License-Identifier: MIT
"""sosrep.dask.score on a LocalCluster of two worker processes equals in-process scoring."""
# Imported, not skipped when missing: the two commands install Debian's python3-dask,
# python3-distributed and python3-pandas, and a missing one is a failure of theirs.
import dask.array as da
import dask.dataframe as dd
import distributed
import numpy as np
import pandas as pd
import pytest

import sosrep
import sosrep.dask


def test_cluster_scoring_equals_in_process(moons):
    est = sosrep.SOSREP().fit(moons)
    rng = np.random.default_rng(5)
    X = rng.normal(scale=1.5, size=(20_000, 2))
    want = est.score_samples(X)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        lazy = sosrep.dask.score(est, da.from_array(X, chunks=(3000, 1)))
        got = lazy.compute()
        assert len(client.scheduler_info()["workers"]) == 2
    assert np.array_equal(got, want)


def test_dataframe_partitions_keep_their_index(moons):
    est = sosrep.KDE().fit(moons)
    frame = pd.DataFrame(np.random.default_rng(6).normal(size=(999, 2)), columns=["a", "b"],
                         index=np.arange(1000, 1999))
    got = sosrep.dask.score(est, dd.from_pandas(frame, npartitions=4)).compute()
    assert list(got.index) == list(frame.index)
    assert np.array_equal(got.to_numpy(), est.score_samples(frame.to_numpy()))


def test_refuses_what_it_cannot_score(moons):
    est = sosrep.KDE().fit(moons)
    with pytest.raises(ValueError, match="3 columns, the model was fitted on 2"):
        sosrep.dask.score(est, da.zeros((10, 3), chunks=5))
    with pytest.raises(TypeError, match="dask array"):
        sosrep.dask.score(est, np.zeros((10, 2)))


def test_every_row_method_is_distributed_and_checked_when_the_graph_is_built(moons):
    """anomaly_score, decision_function, predict and ratio go through dask as score does, equal
    to in-process; a DataFrame's columns are matched by name (reordered back) and a wrong set of
    names is refused before .compute()."""
    frame = pd.DataFrame(moons, columns=["a", "b"])
    est = sosrep.SOSREP(seed=1).fit(frame)
    other = pd.DataFrame(np.random.default_rng(7).normal(size=(700, 2)), columns=["a", "b"])
    parts = dd.from_pandas(other[["b", "a"]], npartitions=3)  # reordered
    for method in ("score_samples", "anomaly_score", "decision_function", "predict"):
        call = getattr(sosrep.dask, "score" if method == "score_samples" else method)
        got = call(est, parts).compute()
        assert np.array_equal(got.to_numpy(), getattr(est, method)(other)), method
    arr = sosrep.dask.predict(est, da.from_array(other.to_numpy(), chunks=(200, 2))).compute()
    assert arr.dtype == np.int64 and np.array_equal(arr, est.predict(other))
    extra = dd.from_pandas(other.assign(label=0), npartitions=2)
    with pytest.raises(ValueError, match="unseen at fit time:\n- label"):
        sosrep.dask.score(est, extra)  # at graph build time: no .compute()
    fire = sosrep.FIRE().fit(moons, moons[:200] + 0.1)
    lazy = sosrep.dask.ratio(fire, da.from_array(moons, chunks=(100, 2)))
    assert np.array_equal(lazy.compute(), fire.ratio(moons))
    with pytest.raises(AttributeError, match="no ratio"):
        sosrep.dask.ratio(est, da.from_array(moons, chunks=(100, 2)))
