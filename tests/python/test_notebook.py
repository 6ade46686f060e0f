# SPDX-License-Identifier: MIT
"""docs/examples/notebook.ipynb, every code cell in order in one namespace, as Jupyter would run
it (without Jupyter: the cells are read from the notebook's JSON), and what it shows checked."""
import json
import pathlib

import numpy as np
import pytest

NOTEBOOK = pathlib.Path(__file__).resolve().parents[2] / "docs" / "examples" / "notebook.ipynb"


def test_the_notebook_runs_and_shows_what_it_says(tmp_path, monkeypatch):
    pytest.importorskip("matplotlib")
    pytest.importorskip("pandas")
    import matplotlib

    matplotlib.use("Agg")
    monkeypatch.chdir(tmp_path)
    cells = json.loads(NOTEBOOK.read_text(encoding="utf-8"))["cells"]
    code = [c for c in cells if c["cell_type"] == "code"]
    assert len(code) >= 5
    assert all(not c["outputs"] for c in code), "the notebook is stored without outputs"
    ns = {}
    for i, cell in enumerate(code):
        exec(compile("".join(cell["source"]), f"notebook.ipynb[{i}]", "exec"), ns)
    clf = ns["clf"]
    # The PyOD workflow: the three attributes, consistent with each other.
    assert ns["clf"].decision_scores_.shape == (500,)
    np.testing.assert_array_equal(clf.labels_, (clf.decision_scores_ > clf.threshold_).astype(int))
    assert clf.labels_.mean() < 0.1  # about contamination (0.05) of the fitted rows
    assert ns["auc"] > 0.9
    assert ns["new_inliers_flagged"] < 0.1
    # sample(): drawn rows look like the data, shifted ones do not.
    assert ns["drawn"].shape == (1000, 2)
    assert ns["mmd_drawn"] < 0.01 < ns["mmd_shifted"]
    assert 0.5 < ns["share"] < 0.75  # 400 rows x 3 against 600 x 1 by weight: 2/3
    assert (tmp_path / "notebook-density.png").stat().st_size > 10_000
    assert (tmp_path / "model.json").exists()
