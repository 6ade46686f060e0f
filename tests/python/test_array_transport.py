# SPDX-License-Identifier: MIT
"""Arrays that crossed a process boundary (pickle, joblib, Dask workers) or come in another byte
order are the same numbers: they are accepted by value and score bit for bit as the original
(issue 53, item 3: an unpickled float64 array was refused as "expected float64 ..., got
float64", which broke GridSearchCV(n_jobs=2) and Dask DataFrames on a process cluster)."""
import pickle

import dask.dataframe as dd
import distributed
import numpy as np
import pandas as pd
import pytest
from sklearn.model_selection import GridSearchCV

import sosrep
import sosrep.dask


def _variants(X):
    """X as it arrives from elsewhere, each with the float64 array it must equal."""
    yield "unpickled", pickle.loads(pickle.dumps(X)), X
    yield "big-endian float64", X.astype(">f8"), X
    single = X.astype(np.float32)
    yield "big-endian float32", single.astype(">f4"), single
    yield "unpickled float32", pickle.loads(pickle.dumps(single)), single
    half = X.astype(np.float16)
    yield "float16", half, half.astype(np.float64)
    frame = pd.DataFrame(X, columns=["a", "b"])
    yield "unpickled DataFrame", pickle.loads(pickle.dumps(frame)), frame


@pytest.mark.parametrize("name", ["SOSREP", "KDE"])
def test_arrays_equal_by_value_fit_and_score_as_the_original(moons, name):
    unpickled = pickle.loads(pickle.dumps(moons))
    assert unpickled.dtype is not np.dtype(np.float64)  # equal, but not NumPy's object
    for what, given, original in _variants(moons):
        est = sosrep.Estimator(name.lower(), seed=2).fit(given)
        want = sosrep.Estimator(name.lower(), seed=2).fit(original)
        assert est.length_scale_ == want.length_scale_, what
        rows = original[:50]
        assert np.array_equal(est.score_samples(rows), want.score_samples(rows)), what
        # Scoring, too, takes them as they come.
        assert np.array_equal(want.score_samples(given[:50]), want.score_samples(rows)), what


def test_a_byte_swapped_array_reaching_the_core_is_refused_in_one_line(moons):
    """Past the Python layer (which swaps), the extension says what to do, not 'got >f8'."""
    est = sosrep.KDE().fit(moons)
    with pytest.raises(TypeError, match=r"non-native byte order .*newbyteorder"):
        est.model_.log_values(moons.astype(">f8"))


def test_grid_search_on_two_processes(moons):
    """joblib sends each fold to a worker process pickled: every fit must succeed there."""
    grid = {"length_scale": [0.05, 0.1, 0.2]}
    search = GridSearchCV(sosrep.SOSREP(seed=1), grid, cv=3, n_jobs=2, error_score="raise")
    search.fit(moons)
    serial = GridSearchCV(sosrep.SOSREP(seed=1), grid, cv=3, n_jobs=1).fit(moons)
    assert search.best_params_ == serial.best_params_
    assert np.array_equal(search.cv_results_["mean_test_score"],
                          serial.cv_results_["mean_test_score"])


def test_dask_dataframes_on_a_process_cluster(moons):
    """from_pandas, repartition, shuffle and to_dask_array, computed on worker processes (the
    partitions travel pickled), equal in-process scoring; the fit on the computed frame too."""
    rng = np.random.default_rng(8)
    frame = pd.DataFrame(rng.normal(size=(3000, 2)), columns=["a", "b"])
    frame["key"] = rng.integers(0, 7, size=len(frame))
    est = sosrep.KDE().fit(pd.DataFrame(moons, columns=["a", "b"]))
    want = pd.Series(est.score_samples(frame[["a", "b"]]), index=frame.index)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        parts = dd.from_pandas(frame, npartitions=4)
        reparted = parts.repartition(npartitions=3)
        shuffled = parts.shuffle("key")
        for what, data in (("from_pandas", parts), ("repartition", reparted),
                           ("shuffle", shuffled)):
            got = sosrep.dask.score(est, data[["a", "b"]]).compute()
            assert np.array_equal(got.sort_index().to_numpy(), want.to_numpy()), what
        arr = reparted[["a", "b"]].to_dask_array(lengths=True)
        got = sosrep.dask.score(est, arr).compute()
        assert np.array_equal(got, want.to_numpy())
        # A fit on rows gathered from the workers (unpickled here) equals the fit on the frame.
        gathered = client.compute(parts[["a", "b"]]).result()
        refit = sosrep.KDE().fit(gathered)
        assert refit.length_scale_ == sosrep.KDE().fit(frame[["a", "b"]]).length_scale_
        assert len(client.scheduler_info()["workers"]) == 2


def test_the_docstrings_say_what_is_so(moons):
    """Issue 53, item 7: SOSREP's said 'unnormalized' of a default model that integrates to 1,
    and sosrep.dask's named a backend the estimators refuse."""
    import re

    est = sosrep.SOSREP(length_scale=0.3).fit(moons)
    lo, hi = moons.min(axis=0) - 1.5, moons.max(axis=0) + 1.5
    xs, ys = np.linspace(lo[0], hi[0], 400), np.linspace(lo[1], hi[1], 400)
    grid = np.column_stack([g.ravel() for g in np.meshgrid(xs, ys)])
    mass = np.exp(est.score_samples(grid)).sum() * (xs[1] - xs[0]) * (ys[1] - ys[0])
    assert abs(mass - 1) < 0.01 and "normalized in closed form" in sosrep.SOSREP.__doc__
    assert "kernel" in est.get_params() and est.get_params()["kernel"] == "gaussian"
    for backend in re.findall(r'backend="(\w+)"', sosrep.dask.__doc__):
        sosrep.SOSREP(backend=backend, length_scale=0.3).fit(moons)  # accepted


def test_a_sample_larger_than_memory_is_refused_naming_n_samples(moons):
    """Issue 53, item 8: sample(10**12) is checked before any work, in one line."""
    est = sosrep.KDE(length_scale=0.3).fit(moons)
    with pytest.raises(ValueError, match=r"^n_samples: 1000000000000 rows of 2 columns need"):
        est.sample(10**12)
    assert est.sample(5, random_state=1).shape == (5, 2)
