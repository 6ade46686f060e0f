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
