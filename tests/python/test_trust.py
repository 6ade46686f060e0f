# SPDX-License-Identifier: MIT
"""Numbers that mean what they say: log densities per unit of X's own columns (scikit-learn's
KernelDensity to 1e-10), scores that do not depend on the batch, and outlier thresholds taken
from rows the model did not fit."""
import json
import os
import re
import subprocess
import sys
import warnings

import numpy as np
import pytest
from sklearn.neighbors import KernelDensity

import sosrep
from conftest import write_csv


def test_kde_unscaled_equals_scikit_learn():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(300, 3)) * [1.0, 3.0, 0.5]
    Y = rng.normal(size=(200, 3)) * 2.0
    h = 0.7
    est = sosrep.KDE(length_scale=h, scale="none").fit(X)
    sk = KernelDensity(bandwidth=h).fit(X)
    # On the fitted rows, and on new rows where scikit-learn's tree is exact: to 1e-10.
    assert np.max(np.abs(est.score_samples(X) - sk.score_samples(X))) < 1e-10
    ours, theirs = est.score_samples(Y), sk.score_samples(Y)
    inside = theirs > -15.0
    assert inside.sum() > 150
    assert np.max(np.abs(ours[inside] - theirs[inside])) < 1e-10
    # Everywhere against a brute-force log-sum-exp (far in the tail, at log p = -26, the tree
    # of scikit-learn 1.2 is 1.4e-9 off it while we are 7e-15 off).
    d2 = ((Y[:, None, :] - X[None, :, :]) ** 2).sum(-1)
    top = (-d2 / (2 * h * h)).max(axis=1)
    brute = (top + np.log(np.exp(-d2 / (2 * h * h) - top[:, None]).sum(axis=1)) - np.log(300)
             - 1.5 * np.log(2 * np.pi * h * h))
    assert np.max(np.abs(ours - brute)) < 1e-12


@pytest.mark.parametrize("scale", ["minmax", "zscore", "robust", "quantile"])
def test_kde_scaled_is_in_the_datas_units(scale):
    # One column: every scaling is isotropic, so l in scaled units is h / spread in X's
    # units, and the log density in X's units is scikit-learn's on the raw rows.
    rng = np.random.default_rng(2)
    X = rng.normal(size=(400, 1)) * 60.0 + 1000.0  # minutes, say
    Y = np.linspace(700, 1300, 61)[:, None]
    spread = {"minmax": np.ptp(X), "zscore": np.std(X, ddof=1),  # our z-score: sample std
              "robust": np.subtract(*np.percentile(X, [75, 25])),  # NumPy's quantiles
              "quantile": np.subtract(*np.percentile(X, [90, 10]))}[scale]
    h = 9.0
    ours = sosrep.KDE(length_scale=h / spread, scale=scale).fit(X)
    theirs = KernelDensity(bandwidth=h).fit(X).score_samples(Y)
    assert np.max(np.abs(ours.score_samples(Y) - theirs)) < 1e-10
    # And it integrates to 1 over X's own axis (2000 draws of N(0, 1) gave 6.97 before).
    grid = np.linspace(500, 1500, 20001)[:, None]
    mass = np.exp(ours.score_samples(grid)).sum() * (grid[1, 0] - grid[0, 0])
    assert abs(mass - 1.0) < 1e-3


def test_the_command_line_writes_data_units_and_says_so(cli, tmp_path):
    rng = np.random.default_rng(3)
    X = np.column_stack([rng.normal(size=300) * 60.0, rng.normal(size=300) * 2.0])
    data = tmp_path / "t.csv"
    np.savetxt(data, X, delimiter=",", header="minutes,hours", comments="", fmt="%.17g")
    scores = tmp_path / "s.csv"
    out = subprocess.run([cli, "fit", "--train", str(data), "--estimator", "kde",
                          "--length-scale", "0.1", "--scores-out", str(scores)],
                         check=True, capture_output=True, text=True)
    assert '"log_value_unit":"per minutes × hours"' in out.stdout
    assert '"length_scale_data_units":[' in out.stdout
    cli_values = np.genfromtxt(scores, delimiter=",", names=True)["log_density"]
    py = sosrep.KDE(length_scale=0.1).fit(X).score_samples(X)
    assert np.array_equal(cli_values, py)


@pytest.mark.parametrize("name", ["SOSREP", "KDE", "KernelSoS", "IForest", "KNN"])
def test_a_rows_score_does_not_depend_on_the_batch(moons, name):
    est = getattr(sosrep, name)().fit(moons)
    Y = np.random.default_rng(4).normal(scale=1.5, size=(999, 2))
    whole = est.score_samples(Y)
    for chunk in (1, 7, 250):
        parts = np.concatenate([est.score_samples(Y[i:i + chunk]) for i in range(0, 999, chunk)])
        assert np.array_equal(parts, whole), chunk


@pytest.mark.parametrize("bad", [0, 0.0, 0.51, 1.0, -0.1, float("nan"), "most", None, True])
def test_contamination_is_refused_before_the_fit(moons, bad):
    with pytest.raises(ValueError, match="contamination"):
        sosrep.KDE(contamination=bad).fit(moons)


@pytest.mark.parametrize("name", ["SOSREP", "KDE", "KNN", "IForest"])
def test_predict_flags_about_the_contamination_of_new_inliers(name):
    rng = np.random.default_rng(5)
    X = rng.normal(size=(1500, 4))
    new = rng.normal(size=(3000, 4))
    est = getattr(sosrep, name)(contamination=0.1).fit(X)
    flagged = np.mean(est.predict(new) == -1)
    assert 0.06 <= flagged <= 0.15, flagged
    # The threshold belongs to the model that scores (under purpose="auto", the anomaly one).
    assert getattr(est, "anomaly_model_", est.model_).outlier_threshold[0] == 0.1
    # 'auto' is PyOD's default contamination.
    assert getattr(sosrep, name)(contamination="auto").fit(X).offset_ == est.offset_


def test_a_threshold_saved_before_data_units_reads_in_todays_units(moons, tmp_path):
    est = sosrep.KDE(contamination=0.1, purpose="density").fit(moons * 10.0)
    est.save(tmp_path / "new.json")
    text = (tmp_path / "new.json").read_text()
    assert '"log_value_units":"data"' in text
    # The same file as an older build wrote it: no units field, log values and the threshold
    # per unit of the scaled coordinates (sum_j log range_j above today's).
    old = json.loads(text)
    old["version"] = 2  # the version those builds wrote
    del old["log_value_units"]
    shift = float(np.sum(np.log(np.ptp(moons * 10.0, axis=0))))
    old["provenance"]["outlier_threshold"]["offset"] += shift
    (tmp_path / "old.json").write_text(json.dumps(old))
    loaded = sosrep.load(tmp_path / "old.json")
    assert abs(loaded.offset_ - est.offset_) < 1e-9
    assert np.array_equal(loaded.predict(moons * 10.0), est.predict(moons * 10.0))


def test_a_degenerate_fit_warns_in_python():
    # 40 columns, neighbours ~8 apart, l = 0.5 in the scaled coordinates: the kernel matrix is
    # the identity. The command line prints this warning; Python raises it.
    X = np.random.default_rng(6).normal(size=(300, 40))
    with pytest.warns(sosrep.FitWarning, match="nearest-neighbour spacing"):
        sosrep.KDE(length_scale=0.5, scale="none").fit(X)


_rng = np.random.default_rng(6)
_BLOB = _rng.normal(size=(300, 2))
_WIDE = _rng.normal(size=(300, 40))


@pytest.mark.parametrize("make, X, expected", [
    (lambda: sosrep.KDE(length_scale=0.5, scale="none"), _WIDE, "nearest-neighbour spacing"),
    (lambda: sosrep.KDE(length_scale=1e5, scale="none"), _BLOB, "times the data's diameter"),
    (lambda: sosrep.KernelSoS(length_scale=0.3, iterations=3), _BLOB, "stopped before converging"),
    (lambda: sosrep.SOSREP(grid=3), _BLOB, "no stable local minimum"),
], ids=["l below the spacing", "l beyond the diameter", "kernel SoS not converged",
        "no stable minimum"])
def test_a_degenerate_fit_warns_and_its_file_warns_again(make, X, expected, tmp_path, cli):
    # The same cases as the command line's tst_degenerate_fits and the app's banner test.
    with pytest.warns(sosrep.FitWarning, match=expected) as record:
        est = make().fit(X)
    # Options are named as this package's keywords, not as the command line's flags.
    assert not any("--" in str(w.message) for w in record)
    assert np.all(np.isfinite(est.score_samples(X)))
    assert np.isfinite(est.offset_)  # a threshold, not NaN (every row an outlier before)
    est.save(tmp_path / "m.json")
    with pytest.warns(sosrep.FitWarning, match="the fit warned: .*" + expected):
        sosrep.load(tmp_path / "m.json")
    # And the command line, scoring the file Python wrote, says it too.
    np.savetxt(tmp_path / "x.csv", X, delimiter=",", comments="",
               header=",".join(f"x{j + 1}" for j in range(X.shape[1])))
    run = subprocess.run([cli, "score", "--model", str(tmp_path / "m.json"), "--data",
                          str(tmp_path / "x.csv"), "--scores-out", str(tmp_path / "s.csv")],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert "the model's fit warned: " in run.stderr and expected in run.stderr


@pytest.mark.parametrize("make, fit_args, error, keyword", [
    (lambda: sosrep.KernelSoS(length_scale=1e-4), (_BLOB,), ValueError, "length_scale"),
    (lambda: sosrep.KernelSoS(length_scale=0.3, lam=1e12), (_BLOB,), FloatingPointError, "lam"),
    (lambda: sosrep.ULSIF(t=1e-10), (_BLOB, _BLOB[:200] + 0.5), ValueError, "t"),
], ids=["kernel SoS ignoring the data at a tiny l", "kernel SoS with a huge lambda",
        "ratio weights underflow"])
def test_a_refused_fit_names_the_keyword_to_change(make, fit_args, error, keyword):
    with pytest.raises(error) as info:
        make().fit(*fit_args)
    message = str(info.value)
    assert "--" not in message, message
    assert re.search(rf"\b{keyword}\b", message), message


def test_a_low_effective_sample_size_warns():
    # Issue 52: uLSIF at t = 1e-7 gave an ESS of 1 of 300 rows without a word.
    with pytest.warns(sosrep.FitWarning, match="effective sample size .* below 5 %"):
        est = sosrep.ULSIF(t=1e-7).fit(_BLOB, _BLOB[:200] + 0.5)
    assert est.ess_ < 0.05 * len(_BLOB)
    assert est.weight_summary_["warnings"]
    with warnings.catch_warnings():
        warnings.simplefilter("error", sosrep.FitWarning)
        est = sosrep.ULSIF(t=0.05).fit(_BLOB, _BLOB[:200] + 0.5)
    assert est.weight_summary_["warnings"] == []


def test_kernel_sos_fits_with_its_defaults_where_a_fine_l_cannot_be_fitted():
    # 21 columns: at the finest l of the sweep the kernel's mass leaves double precision; those
    # points are skipped instead of failing the fit ("lambda may be too large" before).
    X = np.random.default_rng(7).uniform(size=(400, 21))
    est = sosrep.KernelSoS().fit(X)
    assert np.all(np.isfinite(est.score_samples(X)))


def test_novelty_false_labels_the_training_rows_as_scikit_learn_does(moons):
    est = sosrep.KDE(contamination=0.1, novelty=False)
    labels = est.fit_predict(moons)
    assert (labels == -1).sum() == 40  # 10 % of 400 training rows
    # novelty=True (the default) is for new rows: like LocalOutlierFactor(novelty=True) it
    # has no fit_predict, and its threshold comes from held-out rows.
    assert not hasattr(sosrep.KDE(), "fit_predict")
    assert sosrep.KDE(contamination=0.1).fit(moons).offset_ < est.offset_


def test_a_loaded_model_has_the_fitted_ones_parameters_as_numbers(moons, tmp_path):
    # The model file keeps options as text; get_params() gave '15' for grid=15 and
    # length_scale * 2 was '0.10.1'.
    est = sosrep.SOSREP(length_scale=0.1, grid=9, seed=3).fit(moons)
    est.save(tmp_path / "m.json")
    loaded = sosrep.load(tmp_path / "m.json")
    params = loaded.get_params()
    assert params["length_scale"] == 0.1 and isinstance(params["length_scale"], float)
    assert params["grid"] == 9 and isinstance(params["grid"], int)
    assert params["seed"] == 3 and isinstance(params["seed"], int)
    assert params["kernel"] == "gaussian"
    # A bytes path names the same file (str() of it named a file "b'...'").
    again = sosrep.load(os.fsencode(str(tmp_path / "m.json")))
    assert np.array_equal(again.score_samples(moons), loaded.score_samples(moons))


@pytest.mark.parametrize("purpose", ["auto", "density", "anomaly"])
def test_a_loaded_model_has_the_purpose_it_was_given(moons, tmp_path, purpose):
    # purpose='auto' came back as 'density' (the model the file holds), so repr and
    # get_params() of a loaded model differed from the fitted one's.
    est = sosrep.KDE(purpose=purpose).fit(moons)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", sosrep.FitWarning)  # save's note under auto
        est.save(tmp_path / "m.json")
    loaded = sosrep.load(tmp_path / "m.json")
    assert loaded.get_params() == est.get_params()
    assert repr(loaded) == repr(est)
    # The file's model is the density under auto (what `sosrep score` reads too).
    np.testing.assert_array_equal(loaded.score_samples(moons), est.score_samples(moons))


@pytest.mark.parametrize("kwargs, name", [
    (dict(bandwidth=float("inf")), "bandwidth"), (dict(bandwidth=1e-300), "bandwidth"),
    (dict(bandwidth=0.0), "bandwidth"), (dict(mc_samples=0), "mc_samples"),
])
def test_mmd_refuses_what_the_command_line_refuses(moons, kwargs, name):
    # inf and 1e-300 gave NaN, mc_samples=0 silently became 100.
    kde = sosrep.KDE(length_scale=0.1).fit(moons)
    with pytest.raises(ValueError, match=name):
        sosrep.mmd(moons, kde, **kwargs)


@pytest.mark.parametrize("field, value, message", [
    ("contamination", 5, "contamination"),
    ("contamination", "0.1", "contamination"),
    ("offset", 1e308, "offset"),
    ("offset", "x", "offset"),
    ("held_out_rows", -3, "held_out_rows"),
])
def test_a_saved_threshold_is_checked_on_load(moons, tmp_path, field, value, message):
    sosrep.KDE(contamination=0.1).fit(moons).save(tmp_path / "m.json")
    model = json.loads((tmp_path / "m.json").read_text())
    model["provenance"]["outlier_threshold"][field] = value
    (tmp_path / "bad.json").write_text(json.dumps(model))
    with pytest.raises(ValueError, match=r"bad\.json.*provenance\.outlier_threshold\." + message):
        sosrep.load(tmp_path / "bad.json")


def test_unpickling_another_estimators_state_is_refused(moons):
    import pickle
    kde_state = sosrep.KDE().fit(moons).__getstate__()
    kde_state["model_"] = sosrep.IForest().fit(moons).__getstate__()["model_"]
    est = sosrep.KDE.__new__(sosrep.KDE)
    with pytest.raises(ValueError, match="'iforest' model, not a KDE"):
        est.__setstate__(kde_state)
    assert pickle.loads(pickle.dumps(sosrep.KDE().fit(moons))).model_.estimator == "kde"


def test_out_of_memory_says_so():
    # Issue 52: a bare "MemoryError: std::bad_alloc". sample() now refuses a size beyond the
    # machine's memory before any work (issue 53), so the allocation that fails is one within
    # it, under an address-space limit: half the machine's memory, with a limit of a quarter
    # (at most 4 GiB).
    memory = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    limit = min(4 << 30, memory // 4)
    script = (
        "import resource, sys, numpy as np, sosrep\n"
        "X = np.random.default_rng(3).normal(size=(100, 2))\n"
        "est = sosrep.KDE(length_scale=0.5).fit(X)\n"
        "resource.setrlimit(resource.RLIMIT_AS, (int(sys.argv[1]), int(sys.argv[1])))\n"
        "try:\n"
        "    est.sample(int(sys.argv[2]))\n"
        "except MemoryError as e:\n"
        "    print('MemoryError', e)\n"
    )
    out = subprocess.run([sys.executable, "-c", script, str(limit), str(memory // 2 // 16)],
                         capture_output=True, text=True, env=dict(os.environ))
    assert out.stdout.startswith("MemoryError out of memory"), out.stdout + out.stderr


def test_save_onto_a_full_disk_is_an_os_error(moons, tmp_path):
    # Issue 52: RuntimeError. A file size limit of 1 kB stands for the full disk (the model
    # file is larger); the old file is kept.
    target = tmp_path / "m.json"
    target.write_text("old")
    script = (
        "import resource, signal, sys, numpy as np, sosrep\n"
        "signal.signal(signal.SIGXFSZ, signal.SIG_IGN)\n"
        "X = np.random.default_rng(1).normal(size=(200, 2))\n"
        "m = sosrep.KDE(length_scale=0.5).fit(X)\n"
        "resource.setrlimit(resource.RLIMIT_FSIZE, (1024, 1024))\n"
        "try:\n"
        "    m.save(sys.argv[1])\n"
        "except OSError as e:\n"
        "    print('OSError', e)\n"
    )
    out = subprocess.run([sys.executable, "-c", script, str(target)], capture_output=True,
                         text=True, env=dict(os.environ))
    assert out.stdout.startswith("OSError"), out.stdout + out.stderr
    assert "m.json" in out.stdout
    assert target.read_text() == "old"


def test_save_into_a_missing_folder_or_onto_a_folder_is_what_open_raises(tmp_path):
    # Issue 53, item 8: both were ValueError; open(path, "w") raises FileNotFoundError and
    # IsADirectoryError, and nothing is written.
    est = sosrep.KDE(length_scale=0.5).fit(np.random.default_rng(1).normal(size=(50, 2)))
    missing = tmp_path / "no such folder" / "m.json"
    with pytest.raises(FileNotFoundError, match="does not exist") as caught:
        est.save(missing)
    assert caught.value.filename == str(missing)
    with pytest.raises(IsADirectoryError):
        est.save(tmp_path)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("cls", [sosrep.KNN, sosrep.IForest])
def test_a_detector_on_one_distinct_row_says_why_it_has_no_threshold(cls):
    # Issue 52: predict said the model came from a file without a threshold.
    X = np.ones((20, 2))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", sosrep.FitWarning)  # the constant columns
        est = cls().fit(X)
    with pytest.raises(ValueError, match="needs at least 2 distinct rows") as caught:
        est.predict(X)
    assert "file" not in str(caught.value)


def test_rows_the_scaling_cannot_tell_apart_warn(moons, tmp_path):
    # Issue 52: a model file whose scale was changed to 1e300 scored every row -1385.511
    # without a word. The rows still score (a scale that large is what min-max writes for a
    # column that spans 1e300), and the warning names the column that lost them.
    sosrep.KDE(length_scale=0.2).fit(moons).save(tmp_path / "m.json")
    model = json.loads((tmp_path / "m.json").read_text())
    model["scaler"]["scale"][0] = 1e300
    (tmp_path / "bad.json").write_text(json.dumps(model))
    loaded = sosrep.load(tmp_path / "bad.json")
    words = r"in 1 column \('x1' spans .*cannot tell them apart"
    with pytest.warns(sosrep.FitWarning, match=words):
        values = loaded.score_samples(moons)
    assert np.all(np.isfinite(values))
    with warnings.catch_warnings():
        warnings.simplefilter("error", sosrep.FitWarning)
        sosrep.load(tmp_path / "m.json").score_samples(moons)


@pytest.mark.parametrize("call, name", [
    (lambda X, m: sosrep.mmd(X, X + 0.1, seed=2**70), "seed"),
    (lambda X, m: sosrep.mmd(X, m, seed=-1), "seed"),
    (lambda X, m: sosrep.mmd(X, m, mc_samples=2**70), "mc_samples"),
    (lambda X, m: sosrep.mmd(X, X, bandwidth=1j), "bandwidth"),
    (lambda X, m: m.sample(2**70), "n_samples"),
    (lambda X, m: m.sample(3, random_state=2**70), "random_state"),
    (lambda X, m: sosrep.KDE().fit(X, sample_weight=np.ones(len(X)) + 1j), "sample_weight"),
    (lambda X, m: sosrep.KDE().fit(X, sample_weight=[1j] + [1.0] * (len(X) - 1)),
     "sample_weight"),
    (lambda X, m: sosrep.KDE(n_jobs=2**70).fit(X), "n_jobs"),
])
def test_a_bad_argument_is_named_in_one_short_line(moons, call, name):
    # Issue 52: the extension's TypeError printed every argument of the call, whole arrays
    # included (26 kB for mmd with seed=2**70), and complex weights were printed whole.
    model = sosrep.KDE(length_scale=0.2).fit(moons)
    with pytest.raises(ValueError, match="^" + name + ": ") as caught:
        call(moons, model)
    assert len(str(caught.value)) < 200 and "\n" not in str(caught.value)


def test_a_failing_fit_still_warns_of_the_column_that_caused_it():
    # A column whose central 80 % is nearly one value spans 1e9 quantile-scaled units; the fit
    # then fails naming the length scale. The rows' warning, which names the column, used to
    # be lost with the model; it now comes first, as sosrep.FitWarning.
    X = np.random.default_rng(0).normal(size=(200, 3))
    X[:, 2] = np.where(np.arange(200) < 90, 0.0, np.where(np.arange(200) < 190, 1e-9, 1.0))
    with pytest.warns(sosrep.FitWarning, match="'x3' spans 1e\\+09 units"):
        with pytest.raises(ValueError, match="length_scale"):
            sosrep.SOSREP(scale="quantile").fit(X)
