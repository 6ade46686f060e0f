# SPDX-License-Identifier: MIT
"""q given by its rows' density or by the command line's expression (issue 50: the Ratio
view's Copy as Python): fit(P, Q, q_density=...) is `sosrep ratio --q-density`, and
sosrep.q_function(...) is `--q-function`, both bit for bit."""
import subprocess

import numpy as np
import pytest
import sosrep

from conftest import write_csv


@pytest.fixture
def samples():
    rng = np.random.default_rng(12)
    return rng.normal(size=(200, 2)), rng.normal(0.4, 0.8, size=(60, 2))


def weights_written(path):
    table = np.genfromtxt(path, delimiter=",", names=True)
    return table[table.dtype.names[1]]


def test_q_density_is_the_command_lines(cli, tmp_path, samples):
    p, q = samples
    write_csv(tmp_path / "p.csv", p)
    write_csv(tmp_path / "q.csv", q)
    subprocess.run([cli, "ratio", "--p", str(tmp_path / "p.csv"), "--q", str(tmp_path / "q.csv"),
                    "--q-density", "kde", "--seed", "4", "--weights-out",
                    str(tmp_path / "w.csv")], check=True, capture_output=True, text=True)
    est = sosrep.FIRE(seed=4).fit(p, q, q_density="kde")
    assert np.array_equal(weights_written(tmp_path / "w.csv"), est.weights_)
    # Not the Type I ratio of the same rows: q is its density, known at p's rows.
    assert not np.array_equal(sosrep.FIRE(seed=4).fit(p, q).weights_, est.weights_)


def test_q_density_needs_rows_and_a_density(samples):
    p, q = samples
    with pytest.raises(ValueError, match="needs q's rows"):
        sosrep.FIRE().fit(p, q=lambda X: np.ones(len(X)), q_density="kde")
    with pytest.raises(ValueError, match="'iforest' is not a density estimator"):
        sosrep.FIRE().fit(p, q, q_density="iforest")


def test_q_function_is_the_command_lines_expression(cli, tmp_path, samples):
    p, _ = samples
    write_csv(tmp_path / "p.csv", p)
    expr = "exp(-(x1-0.3)^2/2) * (1 + abs(x2))"
    subprocess.run([cli, "ratio", "--p", str(tmp_path / "p.csv"), "--q-function", expr,
                    "--weights-out", str(tmp_path / "w.csv")], check=True, capture_output=True,
                   text=True)
    q = sosrep.q_function(expr)
    assert q.expression == expr
    est = sosrep.FIRE().fit(p, q=q)
    assert np.array_equal(weights_written(tmp_path / "w.csv"), est.weights_)
    rows = np.array([[0.3, -2.0], [1.3, 0.5]])
    assert np.allclose(q(rows), [3.0, np.exp(-0.5) * 1.5], rtol=1e-15)
    with pytest.raises(ValueError, match="x3"):
        sosrep.q_function("x3 + 1")(rows)
