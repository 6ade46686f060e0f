# SPDX-License-Identifier: MIT
"""`sosrep adbench --protocol adbench|paper` picks the rows ADBench's data generator picks
(issue 51). The oracle below takes the generator's steps with the real NumPy, scikit-learn and
Python generators, in its order: np.random.seed and random.seed; a set under 1000 rows redrawn
to 1000 with replacement (generate_duplicates, ADBench's default; the SOSREP authors' loader
turns it off); a set over 10000 rows subsampled; train_test_split(test_size=0.3, shuffle=True,
stratify=y) on the global generator; each part's anomalies redrawn duplicate_times over
(np.random.choice, then random.shuffle); min-max scaling fitted on the training part."""
import random
import subprocess

import numpy as np
import pytest
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import MinMaxScaler


def generator_parts(X, y, seed, redraw_small, duplicate_times):
    np.random.seed(seed)
    random.seed(seed)
    if len(y) < 1000 and redraw_small:
        np.random.seed(seed)
        random.seed(seed)
        idx = np.random.choice(np.arange(len(y)), 1000, replace=True)
        X, y = X[idx], y[idx]
    if len(y) > 10000:
        np.random.seed(seed)
        random.seed(seed)
        idx = np.random.choice(np.arange(len(y)), 10000, replace=False)
        X, y = X[idx], y[idx]
    X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.3, shuffle=True,
                                                        stratify=y)
    if duplicate_times > 1:
        parts = []
        for Xp, yp in ((X_train, y_train), (X_test, y_test)):
            normal = np.where(yp == 0)[0]
            anomalies = np.random.choice(np.where(yp == 1)[0],
                                         int(len(np.where(yp == 1)[0]) * duplicate_times))
            order = np.append(normal, anomalies)
            random.shuffle(order)
            parts += [Xp[order], yp[order]]
        X_train, y_train, X_test, y_test = parts
    scaler = MinMaxScaler().fit(X_train)
    return scaler.transform(X_train), scaler.transform(X_test), y_test


def exported(cli, tmp_path, name, seed, protocol, duplicate_times):
    out = tmp_path / f"splits_{protocol}_{duplicate_times}"
    out.mkdir()
    subprocess.run([cli, "adbench", "--data-dir", str(tmp_path / "sets"), "--only", name,
                    "--seeds", str(seed), "--protocol", protocol, "--duplicate-anomalies",
                    str(duplicate_times), "--estimators", "knn", "--export-splits", str(out)],
                   check=True, capture_output=True, text=True)
    train = np.genfromtxt(out / f"{name}_seed{seed}_train.csv", delimiter=",", skip_header=1)
    test = np.genfromtxt(out / f"{name}_seed{seed}_test.csv", delimiter=",", skip_header=1)
    return train, test[:, :-1], test[:, -1]


@pytest.fixture
def sets(tmp_path):
    rng = np.random.default_rng(5)
    (tmp_path / "sets").mkdir()
    made = {}
    for name, n, share in (("small", 237, 0.08), ("large", 10450, 0.031), ("mid", 1801, 0.5)):
        X = rng.normal(size=(n, 3))
        y = np.zeros(n, dtype=np.int64)
        y[rng.choice(n, int(n * share), replace=False)] = 1
        np.savez(tmp_path / "sets" / f"{name}.npz", X=X, y=y)
        made[name] = (X, y)
    return made


@pytest.mark.parametrize("name,seed,protocol,duplicate_times", [
    ("small", 1, "adbench", 1), ("small", 42, "paper", 1), ("large", 2, "adbench", 1),
    ("mid", 3, "adbench", 1), ("small", 3, "adbench", 5), ("large", 1, "paper", 3),
])
def test_the_generators_rows_in_its_order(cli, tmp_path, sets, name, seed, protocol,
                                          duplicate_times):
    X, y = sets[name]
    want_train, want_test, want_labels = generator_parts(X, y, seed, protocol == "adbench",
                                                         duplicate_times)
    train, test, labels = exported(cli, tmp_path, name, seed, protocol, duplicate_times)
    assert train.shape == want_train.shape and test.shape == want_test.shape
    assert np.array_equal(labels, want_labels)
    # The same rows in the same order (min-max's rounding differs by an ulp or so).
    assert np.allclose(train, want_train, rtol=0, atol=1e-12)
    assert np.allclose(test, want_test, rtol=0, atol=1e-12)


def test_our_protocol_is_not_adbenchs_draws(cli, tmp_path, sets):
    X, y = sets["mid"]
    want_train, _, _ = generator_parts(X, y, 3, True, 1)
    train, _, _ = exported(cli, tmp_path, "mid", 3, "ours", 1)
    # Each class's test share rounded on its own: 1261 training rows where ADBench has 1260.
    assert (len(train), len(want_train)) == (1261, 1260)
    assert not np.allclose(train[:100], want_train[:100], rtol=0, atol=1e-12)
