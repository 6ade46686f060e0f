# SPDX-License-Identifier: MIT
"""Shared fixtures of the Python tests: toy data, the command line and temporary files."""
import os

import numpy as np
import pytest


@pytest.fixture(scope="session")
def moons():
    """Two moons, 400 rows, fixed seed (as `sosrep generate --toy moons`)."""
    from sklearn.datasets import make_moons

    X, _ = make_moons(n_samples=400, noise=0.08, random_state=3)
    return X


@pytest.fixture(scope="session")
def cli():
    path = os.environ.get("SOSREP_CLI")
    if not path or not os.path.exists(path):
        pytest.skip("SOSREP_CLI (the sosrep binary) is not set")
    return path


def write_csv(path, X):
    header = ",".join(f"x{j + 1}" for j in range(X.shape[1]))
    np.savetxt(path, X, delimiter=",", header=header, comments="", fmt="%.17g")
