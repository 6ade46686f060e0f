# SPDX-License-Identifier: MIT
"""The Python package against the core it wraps: classes from the registry, the command
line's numbers bit for bit, model files both ways, pickling, input layouts, errors, cancel."""
import _thread
import pickle
import subprocess
import threading
import time

import numpy as np
import pytest

import sosrep
from sklearn.neighbors import KernelDensity
from conftest import write_csv


def test_every_registered_estimator_is_a_class():
    names = sosrep.estimators()
    for name in ("sosrep", "kde", "sos-mmd", "fire", "ulsif"):
        assert name in names
    assert sosrep.SOSREP().length_scale == "auto"
    assert isinstance(sosrep.Estimator("kde", kernel="laplace"), sosrep.KDE)
    assert sosrep.KernelSoS.__name__ == "KernelSoS"
    params = sosrep.SOSREP().get_params()
    assert params["purpose"] == "auto" and "contamination" in params


def test_fit_and_score_moons(moons):
    est = sosrep.SOSREP().fit(moons)
    s = est.score_samples(moons)
    assert s.shape == (400,) and np.all(np.isfinite(s))
    assert est.length_scale_ > 0
    assert est.n_features_in_ == 2
    assert len(est.fd_curve_) >= 15
    assert est.fd_curve_.dtype.names[:2] == ("length_scale", "fd")
    assert np.isclose(est.fd_curve_["length_scale"], est.length_scale_).any()
    # Outliers: far from the moons scores below every training row.
    far = np.array([[10.0, 10.0]])
    assert est.score_samples(far)[0] < s.min()
    assert est.predict(far)[0] == -1
    # anomaly_score: the anomaly purpose's model under purpose="auto" (it ranks the far row
    # above every training row); the density's own minus log p under purpose="density".
    assert est.anomaly_score(far)[0] > est.anomaly_score(moons).max()
    dens = sosrep.SOSREP(purpose="density").fit(moons)
    assert dens.anomaly_score(far)[0] == -dens.score_samples(far)[0]


def test_scores_equal_the_command_line_bit_for_bit(moons, cli, tmp_path):
    data = tmp_path / "moons.csv"
    write_csv(data, moons)
    model_file = tmp_path / "cli.json"
    subprocess.run([cli, "fit", "--train", str(data), "--model-out", str(model_file)],
                   check=True, capture_output=True)
    ours = sosrep.SOSREP().fit(moons)
    theirs = sosrep.load(model_file)
    assert theirs.length_scale_ == ours.length_scale_
    assert np.array_equal(theirs.score_samples(moons), ours.score_samples(moons))
    # And the other way: the command line scores with the model Python wrote.
    ours.save(tmp_path / "py.json")
    scores = tmp_path / "scores.csv"
    subprocess.run([cli, "score", "--model", str(tmp_path / "py.json"), "--data", str(data),
                    "--scores-out", str(scores)], check=True, capture_output=True)
    table = np.genfromtxt(scores, delimiter=",", names=True)
    assert np.array_equal(table[table.dtype.names[1]], ours.score_samples(moons))
    # The command line's file has no outlier threshold: predict says so instead of guessing.
    with pytest.raises(ValueError, match="no outlier threshold: .*read from a file"):
        theirs.predict(moons)


def test_a_saved_detector_predicts_as_it_did(moons, cli, tmp_path):
    est = sosrep.KNN(contamination=0.05).fit(moons)
    est.save(tmp_path / "knn.json")
    loaded = sosrep.load(tmp_path / "knn.json")
    assert loaded.contamination == 0.05 and loaded.offset_ == est.offset_
    assert np.array_equal(loaded.predict(moons), est.predict(moons))
    # The threshold is the 5 % quantile of held-out rows' scores (a 5-fold cross-fit): the
    # training rows themselves sit higher, so fewer than 5 % of them fall below it.
    assert 0 < (est.predict(moons) == -1).sum() <= 20
    back = pickle.loads(pickle.dumps(est))
    assert np.array_equal(back.decision_function(moons), est.decision_function(moons))
    # The threshold rides in the provenance: the command line still reads and scores the file.
    subprocess.run([cli, "score", "--model", str(tmp_path / "knn.json"), "--data",
                    str(_csv(tmp_path, moons)), "--scores-out", str(tmp_path / "s.csv")],
                   check=True, capture_output=True)


def _csv(tmp_path, X):
    path = tmp_path / "rows.csv"
    write_csv(path, X)
    return path


def test_pickle_round_trip(moons):
    est = sosrep.KDE().fit(moons)
    back = pickle.loads(pickle.dumps(est))
    assert np.array_equal(back.score_samples(moons), est.score_samples(moons))
    assert back.get_params() == est.get_params()
    tuned = pickle.loads(pickle.dumps(sosrep.SOSREP().fit(moons)))
    assert len(tuned.fd_curve_) >= 15 and tuned.length_scale_ > 0 and hasattr(tuned, "offset_")


def test_float32_and_fortran_input(moons):
    est = sosrep.SOSREP().fit(moons)
    want = est.score_samples(np.ascontiguousarray(moons))
    assert np.array_equal(est.score_samples(np.asfortranarray(moons)), want)
    x32 = moons.astype(np.float32)
    assert np.array_equal(est.score_samples(x32), est.score_samples(x32.astype(np.float64)))
    strided = np.repeat(moons, 2, axis=0)[::2]
    assert np.array_equal(est.score_samples(strided), want)


def test_bad_input_says_what_is_wrong(moons):
    bad = moons.copy()
    bad[2, 1] = np.nan
    with pytest.raises(ValueError, match=r"non-finite value NaN in X \(row 3, column 2\)"):
        sosrep.SOSREP().fit(bad)
    bad[2, 1] = np.inf
    with pytest.raises(ValueError, match="non-finite value inf"):
        sosrep.KDE().fit(bad)
    with pytest.raises(ValueError, match="2-D"):
        sosrep.KDE().fit(moons[:, 0])
    est = sosrep.KDE().fit(moons)
    with pytest.raises(ValueError, match="3 columns, the model was fitted on 2"):
        est.score_samples(np.zeros((4, 3)))
    with pytest.raises(TypeError, match="bandwidth: not an option of kde"):
        sosrep.KDE(bandwidth=0.3)
    with pytest.raises(ValueError, match="estimator: 'nope' is not one of"):
        sosrep.Estimator("nope")
    with pytest.raises(ValueError, match="length_scale"):
        sosrep.KDE(length_scale=-1.0).fit(moons)
    with pytest.raises(AttributeError, match="pre-density"):
        sosrep.SOSREP(kernel="laplace").fit(moons).score(moons)
    with pytest.raises(AttributeError, match="normality score"):
        sosrep.SOSREP(purpose="anomaly", length_scale="auto").fit(
            np.random.default_rng(5).normal(size=(500, 6))).score(moons)


def test_progress_callback_and_released_gil(moons):
    # The core works in a worker thread; this thread counts meanwhile. With the GIL held by
    # the core it could not run at all in that time; released, it counts all along.
    X = np.tile(moons, (3, 1)) + 0.01 * np.arange(1200)[:, None] / 1200
    seen = []
    est = sosrep.SOSREP().fit(X, progress=lambda stage, d, n: seen.append((stage, d, n)))
    # Scoring: one call into the core with nothing that enters Python (a fit polls Python for
    # Ctrl+C between steps, which hands the GIL over too, so it tells less).
    big = np.random.default_rng(1).normal(size=(400_000, 2))
    worker = threading.Thread(target=lambda: est.score_samples(big))
    start = time.monotonic()
    stamps = [start]  # Thread.start() itself waits if the worker took the GIL into the core
    worker.start()
    while worker.is_alive():
        stamps.append(time.monotonic())
        for _ in range(1000):
            pass
    stamps.append(time.monotonic())  # a wait for the GIL at the end is a gap too
    elapsed = stamps[-1] - start
    assert seen and all(n > 0 for _, _, n in seen)
    assert elapsed > 0.1, "the scoring was too quick to tell"
    longest = max(b - a for a, b in zip(stamps, stamps[1:]))
    assert longest < 0.25 * elapsed, (longest, elapsed)  # held: one gap as long as the fit


def test_keyboard_interrupt_cancels_a_fit():
    rng = np.random.default_rng(0)
    # Long enough (about 2 s) that the interrupt comes mid-fit: 3000 rows took 0.4 s, and the
    # interrupt then landed in the next test.
    X = rng.normal(size=(8000, 5))
    timer = threading.Timer(0.5, _thread.interrupt_main)
    start = time.monotonic()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        sosrep.SOSREP(grid=40).fit(X)
    timer.cancel()
    assert time.monotonic() - start < 5.0


def test_fire_ratio_equals_the_command_line(cli, tmp_path):
    rng = np.random.default_rng(7)
    p = rng.normal(size=(400, 1))
    q = 0.5 + 0.6 * rng.normal(size=(300, 1))
    write_csv(tmp_path / "p.csv", p)
    write_csv(tmp_path / "q.csv", q)
    out = subprocess.run([cli, "ratio", "-p", str(tmp_path / "p.csv"), "-q",
                          str(tmp_path / "q.csv"), "--estimator", "fire", "--weights-out",
                          str(tmp_path / "w.csv")], check=True, capture_output=True, text=True)
    import json

    summary = json.loads(out.stdout.strip().splitlines()[-1])
    est = sosrep.FIRE().fit(p, q)
    assert est.model_.summary["t"] == summary["t"]
    assert est.model_.summary["lambda"] == summary["lambda"]
    assert est.ess_ == summary["weight_ess"]
    weights = np.genfromtxt(tmp_path / "w.csv", delimiter=",", names=True)
    assert np.array_equal(weights[weights.dtype.names[1]], est.weights_)
    assert np.array_equal(est.ratio(p), est.weights_)
    with pytest.raises(ValueError, match="needs a sample of q"):
        sosrep.FIRE().fit(p, None)


def test_mmd_equals_the_command_line(moons, cli, tmp_path):
    import json

    rng = np.random.default_rng(8)
    other = moons[::2] + 0.05 * rng.normal(size=(200, 2))
    write_csv(tmp_path / "a.csv", moons)
    write_csv(tmp_path / "b.csv", other)
    out = subprocess.run([cli, "mmd", "--data", str(tmp_path / "a.csv"), "--data2",
                          str(tmp_path / "b.csv")], check=True, capture_output=True, text=True)
    want = json.loads(out.stdout.strip().splitlines()[-1])
    got = sosrep.mmd(moons, other)
    assert (got["mmd2_v"], got["mmd2_u"], got["bandwidth"]) == \
        (want["mmd2_v"], want["mmd2_u"], want["bandwidth"])
    est = sosrep.KDE().fit(moons)
    est.save(tmp_path / "kde.json")
    out = subprocess.run([cli, "mmd", "--data", str(tmp_path / "b.csv"), "--model",
                          str(tmp_path / "kde.json")], check=True, capture_output=True, text=True)
    got = sosrep.mmd(other, est)
    assert got["mmd2"] > 0 and got["method"] == "closed-form"
    assert json.dumps(got["mmd2"]) in out.stdout


def test_fire_with_q_as_a_function_equals_the_command_line(cli, tmp_path):
    rng = np.random.default_rng(9)
    p = rng.normal(size=(300, 1))
    write_csv(tmp_path / "p.csv", p)
    expr = "exp(-(x1-0.5)^2/(2*0.36))/sqrt(2*pi*0.36)"
    subprocess.run([cli, "ratio", "-p", str(tmp_path / "p.csv"), "--type", "2",
                    "--q-function", expr, "--estimator", "fire", "--weights-out",
                    str(tmp_path / "w.csv")], check=True, capture_output=True, text=True)
    q = lambda X: np.exp(-(X[:, 0] - 0.5) ** 2 / (2 * 0.36)) / np.sqrt(2 * np.pi * 0.36)
    est = sosrep.FIRE().fit(p, q=q)
    weights = np.genfromtxt(tmp_path / "w.csv", delimiter=",", names=True)
    assert np.allclose(weights[weights.dtype.names[1]], est.weights_, rtol=1e-12, atol=0)
    with pytest.raises(ValueError, match="q: is -1 at row 1 of 'X'"):
        sosrep.FIRE().fit(p, q=lambda X: -np.ones(len(X)))
    with pytest.raises(ValueError, match="one of them"):
        sosrep.FIRE().fit(p)


def test_clone_pipeline_and_grid_search(moons):
    from sklearn.base import clone
    from sklearn.model_selection import GridSearchCV, KFold, cross_val_score
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    est = sosrep.KDE(length_scale=0.1, kernel="laplace")
    twin = clone(est).set_params(length_scale=0.2)
    assert twin.get_params()["kernel"] == "laplace" and est.length_scale == 0.1
    pipe = make_pipeline(StandardScaler(), sosrep.KDE()).fit(moons)
    assert pipe.score_samples(moons).shape == (400,)
    # GridSearchCV picks the length scale whose held-out mean log-likelihood is highest, the
    # same choice as cross-validating each value by hand.
    grid = [0.01, 0.03, 0.1]  # the best, 0.03, inside the grid
    folds = KFold(3, shuffle=True, random_state=0)
    search = GridSearchCV(sosrep.KDE(), {"length_scale": grid}, cv=folds).fit(moons)
    by_hand = [cross_val_score(sosrep.KDE(length_scale=h), moons, cv=folds).mean() for h in grid]
    assert search.best_params_["length_scale"] == grid[int(np.argmax(by_hand))] == 0.03
    assert np.allclose(search.cv_results_["mean_test_score"], by_hand)


@pytest.mark.parametrize("name", ["SOSREP", "KDE"])
def test_auto_purpose_scores_anomalies_with_the_anomaly_model(name, tmp_path):
    """A user who never sets purpose gets the anomaly purpose where they ask for anomaly scores
    (anomaly_score, decision_function, predict) and the density where they ask for a density
    (score_samples, score): the same numbers as the two purposes fitted on their own."""
    rng = np.random.default_rng(5)
    X = np.vstack([rng.normal(size=(500, 6)), rng.normal(6.0, 0.3, size=(4, 6))])
    cls = getattr(sosrep, name)
    auto = cls(seed=2).fit(X)
    density = cls(seed=2, purpose="density").fit(X)
    anomaly = cls(seed=2, purpose="anomaly").fit(X)
    assert hasattr(auto, "anomaly_model_")
    assert not hasattr(density, "anomaly_model_") and not hasattr(anomaly, "anomaly_model_")
    np.testing.assert_array_equal(auto.score_samples(X), density.score_samples(X))
    np.testing.assert_array_equal(auto.anomaly_score(X), anomaly.anomaly_score(X))
    assert not np.array_equal(auto.anomaly_score(X), -auto.score_samples(X))
    assert auto.offset_ == anomaly.offset_
    np.testing.assert_array_equal(auto.decision_function(X), anomaly.decision_function(X))
    np.testing.assert_array_equal(auto.predict(X), anomaly.predict(X))
    assert (auto.predict(X) == np.where(auto.decision_function(X) >= 0, 1, -1)).all()
    # Pickled, it decides as before; saved, the file is the density and says so.
    again = pickle.loads(pickle.dumps(auto))
    np.testing.assert_array_equal(again.anomaly_score(X), auto.anomaly_score(X))
    np.testing.assert_array_equal(again.predict(X), auto.predict(X))
    with pytest.warns(sosrep.FitWarning, match="holds the density model"):
        auto.save(tmp_path / "m.json")
    loaded = sosrep.load(tmp_path / "m.json")
    np.testing.assert_array_equal(loaded.score_samples(X), auto.score_samples(X))
    # Outlier detection on the training rows under auto: the anomaly model's threshold.
    labels = cls(seed=2, novelty=False).fit_predict(X)
    np.testing.assert_array_equal(labels, cls(seed=2, purpose="anomaly",
                                              novelty=False).fit_predict(X))


@pytest.mark.parametrize("name", ["SOSREP", "KDE"])
def test_auto_scale_follows_the_purpose_on_spike_and_tail_columns(name):
    """scale='auto' is the purpose's: on columns that are mostly one value with a sparse tail
    (as ReLU features), the anomaly purpose ranks rows in rank-scaled columns and the density
    keeps min-max; the anomaly side is then a whole fit of its own, the same numbers as
    purpose='anomaly' fitted alone."""
    rng = np.random.default_rng(11)
    X = np.where(rng.random((400, 5)) < 0.7, 0.0, rng.exponential(size=(400, 5)))
    cls = getattr(sosrep, name)
    auto = cls(seed=3).fit(X)
    assert cls().get_params()["scale"] == "auto"
    assert auto.summary_["scaling"] == "minmax"
    assert auto.anomaly_model_.summary["scaling"] == "rank"
    anomaly = cls(seed=3, purpose="anomaly").fit(X)
    assert anomaly.summary_["scaling"] == "rank"
    np.testing.assert_array_equal(auto.anomaly_score(X), anomaly.anomaly_score(X))
    np.testing.assert_array_equal(auto.score_samples(X),
                                  cls(seed=3, purpose="density").fit(X).score_samples(X))
    assert auto.offset_ == anomaly.offset_
    assert np.isfinite(auto.anomaly_score(X)).all()
    # Rows far beyond every training row stay far (rank continues with min-max's slope).
    far = np.full((3, 5), 20.0)
    assert auto.anomaly_score(far).min() > auto.anomaly_score(X).max()
    # A named scaling serves both purposes: one sweep, one scaling.
    named = cls(seed=3, scale="minmax").fit(X)
    assert named.summary_["scaling"] == "minmax"
    if hasattr(named, "anomaly_model_"):
        assert named.anomaly_model_.summary["scaling"] == "minmax"
    # On continuous columns auto is min-max for both, as before.
    smooth = cls(seed=3).fit(rng.normal(size=(300, 3)))
    assert smooth.summary_["scaling"] == "minmax"
    if hasattr(smooth, "anomaly_model_"):
        assert smooth.anomaly_model_.summary["scaling"] == "minmax"


def test_the_anomaly_models_own_warnings_reach_the_user():
    """Under purpose='auto' with its own scaling the anomaly purpose's model is a fit of its
    own, and what it warns is warned too, named as its own (once where both say the same)."""
    rng = np.random.default_rng(1)
    X = np.maximum(rng.normal(size=(600, 8)) @ rng.normal(size=(8, 40)) - 2.0, 0.0)
    with pytest.warns(sosrep.FitWarning) as record:
        est = sosrep.KDE(length_scale=0.01).fit(X)
    messages = [str(w.message) for w in record]
    assert est.anomaly_model_.summary["scaling"] == "rank"
    assert any(m.startswith("the length scale 0.01 is far below") for m in messages)
    own = [m for m in messages if m.startswith("the anomaly purpose's model: ")]
    assert own and own[0].endswith(est.anomaly_model_.warnings[0])
    assert len(messages) == len(set(messages))


@pytest.mark.parametrize("name", ["SOSREP", "IForest", "LOF"])
def test_pyod_attributes(name):
    """decision_scores_, threshold_ and labels_ as PyOD defines them: the fitted rows' anomaly
    scores (higher = more anomalous), each from a model that did not fit the row (a 5-fold
    cross-fit), their (1 - contamination) quantile, and 0/1 labels of the rows above it."""
    rng = np.random.default_rng(3)
    X = np.vstack([rng.normal(size=(400, 4)), rng.normal(8.0, 0.2, size=(6, 4))])
    est = getattr(sosrep, name)(seed=1).fit(X)
    scores = est.decision_scores_
    assert scores.shape == (406,)
    assert est.threshold_ == np.percentile(scores, 90.0)  # contamination "auto": 0.1
    np.testing.assert_array_equal(est.labels_, (scores > est.threshold_).astype(int))
    assert abs(est.labels_.sum() - 40.6) <= 1.0
    assert scores[-6:].min() > np.median(scores)  # the far clump
    # Not the in-sample scores: a row the model fitted sits on its own kernel bump (or in its
    # own trees), and scores as more typical than it is.
    assert np.mean(scores > est.anomaly_score(X)) > 0.3
    # predict keeps the threshold for new rows (offset_), which labels_ does not decide.
    assert np.isfinite(est.offset_)
    # A model read back (pickle, load) keeps no rows: no decision_scores_ and no quantile of
    # them, said so; its threshold for new rows goes along.
    loaded = pickle.loads(pickle.dumps(est))
    assert loaded.offset_ == est.offset_
    for attribute in ("decision_scores_", "threshold_", "labels_"):
        with pytest.raises(AttributeError, match="keeps no training rows"):
            getattr(loaded, attribute)


def _detector_classes():
    return [c for c in sosrep.__dict__.values()
            if isinstance(c, type) and issubclass(c, sosrep.DetectorEstimator)
            and c is not sosrep.DetectorEstimator and c is not sosrep.DensityEstimator]


@pytest.mark.parametrize("cls", _detector_classes(), ids=lambda c: c.__name__)
def test_labels_flag_the_contamination_share_of_the_fitted_rows(cls):
    """PyOD's labels_: the contamination share of the training rows, to within one row, for
    every detector and several shares (issue 53: 1.6 % at 0.05 on Cardiotocography, because the
    threshold was held-out and the training scores in-sample)."""
    rng = np.random.default_rng(5)
    X = np.vstack([rng.normal(size=(240, 3)), rng.normal(6.0, 1.0, size=(10, 3))])
    for c in (0.05, 0.1, 0.2):
        est = cls(contamination=c, seed=2).fit(X)
        assert abs(est.labels_.sum() - c * len(X)) <= 1.0, (c, est.labels_.sum())
        np.testing.assert_array_equal(est.labels_,
                                      (est.decision_scores_ > est.threshold_).astype(int))


def test_random_state_as_scikit_learn_takes_it():
    """random_state: None keeps seed, an int is the seed, a RandomState or Generator is drawn
    from (advancing it, as scikit-learn's estimators do); anything else is a TypeError."""
    rng = np.random.default_rng(8)
    X = rng.normal(size=(200, 2))
    by_seed = sosrep.IForest(seed=5).fit(X).score_samples(X)
    np.testing.assert_array_equal(sosrep.IForest(random_state=5).fit(X).score_samples(X), by_seed)
    assert sosrep.IForest(random_state=5, seed=9).fit(X).model_.settings["seed"] == "5"
    assert sosrep.IForest(seed=9).fit(X).model_.settings["seed"] == "9"
    a = sosrep.IForest(random_state=np.random.RandomState(0)).fit(X).score_samples(X)
    b = sosrep.IForest(random_state=np.random.RandomState(0)).fit(X).score_samples(X)
    np.testing.assert_array_equal(a, b)
    state = np.random.RandomState(0)
    first = sosrep.IForest(random_state=state).fit(X).model_.settings["seed"]
    second = sosrep.IForest(random_state=state).fit(X).model_.settings["seed"]
    assert first != second  # the state advanced
    gen = sosrep.SOSREP(random_state=np.random.default_rng(1), length_scale=0.3).fit(X)
    assert int(gen.model_.settings["seed"]) >= 0
    with pytest.raises(TypeError, match="random_state"):
        sosrep.IForest(random_state="7").fit(X)
    with pytest.raises(ValueError, match="random_state"):
        sosrep.IForest(random_state=-1).fit(X)


def test_summary_and_curve_say_what_they_hold():
    """summary_ carries what the command line's summary says (status, purpose, selection rule)
    and the ensemble's length scales as numbers; a curve column nobody computed is NaN, not 0;
    a detector without a kernel has no length_scale_."""
    X = np.random.default_rng(5).normal(size=(500, 6))
    est = sosrep.SOSREP(seed=2, purpose="anomaly").fit(X)
    s = est.summary_
    assert s["status"] == "converged" and s["purpose"] == "anomaly"
    assert s["selection_rule"] == "anomaly" and s["seed"] == "2"
    assert [type(v) for v in s["ensemble_length_scales"]] == [float, float]
    assert np.isnan(est.fd_curve_["held_out_log_likelihood"]).all()
    liked = sosrep.KDE(selection="likelihood").fit(X)
    assert np.isfinite(liked.fd_curve_["held_out_log_likelihood"]).all()
    forest = sosrep.IForest().fit(X)
    assert not hasattr(forest, "length_scale_")
    assert forest.summary_["status"] == "converged"


def test_n_jobs_sets_the_threads_of_each_call_only():
    """n_jobs as scikit-learn reads it (None: 1 or a joblib context's; -1: every core); the
    numbers do not depend on it, the threads are set for the call and restored after, and a
    bad value is refused before any work."""
    from sosrep import _sosrep
    from sosrep._estimators import _threads_of
    X = np.random.default_rng(2).normal(size=(600, 4))
    one = sosrep.SOSREP(n_jobs=1, seed=3).fit(X)
    two = sosrep.SOSREP(n_jobs=2, seed=3).fit(X)
    assert one.length_scale_ == two.length_scale_
    np.testing.assert_allclose(one.score_samples(X), two.score_samples(X), rtol=1e-12)
    np.testing.assert_array_equal(two.score_samples(X), one.set_params(n_jobs=2).score_samples(X))
    before = _sosrep.set_threads(3, False)
    two.score_samples(X)
    assert _sosrep.set_threads(*before) == (3, False)  # restored after the call
    cores = _sosrep.available_cores()
    assert _threads_of(None) == 1 and _threads_of(-1) == cores
    assert _threads_of(-2) == max(1, cores - 1) and _threads_of(4) == 4
    from joblib import parallel_backend
    with parallel_backend("threading", n_jobs=2):
        assert _threads_of(None) == 2
    for bad in (0, "2", 1.5, True):
        with pytest.raises(ValueError, match="n_jobs"):
            sosrep.KDE(n_jobs=bad).fit(X)


@pytest.mark.parametrize("name", ["KDE", "SOSREP", "KernelSoS"])
def test_sample_draws_from_the_model(name, moons):
    """sample(): seeded rows in X's units whose MMD to the fitted model (closed form or grid
    quadrature) is at the level of an exact sample of that size, ten times below the same rows
    shifted by a tenth of a kernel width; KDE's moments are the data's plus the kernel's."""
    est = getattr(sosrep, name)(seed=1).fit(moons)
    S = est.sample(2000, random_state=3)
    assert S.shape == (2000, 2)
    np.testing.assert_array_equal(S, est.sample(2000, random_state=3))
    assert not np.array_equal(S, est.sample(2000, random_state=4))
    near = sosrep.mmd(S, est)["mmd2"]
    shifted = sosrep.mmd(S + 0.05, est)["mmd2"]
    assert near < 5e-4 and near < shifted / 5, (near, shifted)
    if name == "KDE":
        # Per column: the data's mean; the data's variance plus the kernel's (l in X's units).
        big = est.sample(40000, random_state=5)
        scale = moons.max(0) - moons.min(0)  # min-max scaling
        np.testing.assert_allclose(big.mean(0), moons.mean(0), atol=0.02)
        np.testing.assert_allclose(big.var(0), moons.var(0) + (est.length_scale_ * scale) ** 2,
                                   rtol=0.03)


def test_sample_is_refused_where_there_is_no_exact_method(moons):
    with pytest.raises(ValueError, match="laplace, not Gaussian"):
        sosrep.KDE(kernel="laplace").fit(moons).sample(10)
    with pytest.raises(ValueError, match="n_samples"):
        sosrep.KDE().fit(moons).sample(0)
    assert not hasattr(sosrep.IForest().fit(moons), "sample")  # a score, not a density


def test_version_is_the_command_lines(cli):
    out = subprocess.run([cli, "--version"], check=True, capture_output=True, text=True).stdout
    assert out.strip() == f"sosrep {sosrep.__version__}"
    assert sosrep.__version__.count(".") == 2


@pytest.mark.parametrize("name", ["sosrep", "kde", "sos-mmd", "iforest", "knn", "lof", "ecod"])
def test_progress_has_one_total_and_completes(name, moons):
    # Issue 37: a tqdm adapter stopped at 94 % (the sweep's units, then the final fit's), KDE's
    # total changed mid-run, and IForest and KNN never reported.
    calls = []
    options = {"grid": 5} if name == "sos-mmd" else {}
    sosrep.Estimator(name, **options).fit(moons[:200], progress=lambda *a: calls.append(a))
    assert calls, name
    totals = {total for _, _, total in calls}
    assert len(totals) == 1, (name, totals)
    done = [d for _, d, _ in calls]
    assert done == sorted(done), (name, done)
    total = totals.pop()
    assert done[-1] == total and done.count(total) == 1, (name, calls[-3:])
    assert calls[-1][0] == "done"


def test_verbose_prints_the_progress_to_stderr(moons, capsys):
    sosrep.KDE(verbose=1).fit(moons[:100])
    err = capsys.readouterr().err
    assert "KDE: done 100 %" in err or ("100%" in err and "KDE" in err), err
    sosrep.KDE().fit(moons[:100])
    assert capsys.readouterr().err == ""


def test_verbose_drives_a_tqdm_bar_to_its_total(moons, monkeypatch):
    import sys
    import types

    bars = []

    class FakeBar:
        def __init__(self, total, **kwargs):
            self.total, self.n, self.closed = total, 0, False
            bars.append(self)

        def set_postfix_str(self, text, refresh=True):
            self.stage = text

        def update(self, k):
            assert k >= 0
            self.n += k

        def close(self):
            self.closed = True

    monkeypatch.setitem(sys.modules, "tqdm", types.SimpleNamespace(tqdm=FakeBar))
    sosrep.SOSREP(verbose=1).fit(moons[:150])
    assert len(bars) == 1 and bars[0].n == bars[0].total and bars[0].closed


def test_bw_adjust_multiplies_the_fitted_length_scale_as_seaborn():
    """bw_adjust: the tuned l times the multiplier, the model that of that number (here
    scikit-learn's KernelDensity at the multiplied bandwidth, without scaling)."""
    rng = np.random.default_rng(11)
    X = rng.normal(size=(300, 2))
    Y = rng.normal(size=(40, 2))
    plain = sosrep.KDE(scale="none", purpose="density").fit(X)
    wide = sosrep.KDE(scale="none", purpose="density", bw_adjust=1.5).fit(X)
    assert wide.get_params()["bw_adjust"] == 1.5
    assert wide.length_scale_ == pytest.approx(1.5 * plain.length_scale_, rel=1e-15)
    theirs = KernelDensity(bandwidth=wide.length_scale_).fit(X)
    np.testing.assert_allclose(wide.score_samples(Y), theirs.score_samples(Y), rtol=1e-10)
    with pytest.raises(ValueError, match="bw_adjust"):
        sosrep.KDE(bw_adjust=0).fit(X)
