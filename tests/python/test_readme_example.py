# SPDX-License-Identifier: MIT
"""The README's Python example, run as it is written (matplotlib without a display)."""
import os
import pathlib
import re
import warnings

import pytest

README = pathlib.Path(__file__).resolve().parents[2] / "README.md"


def test_readme_example_runs(tmp_path, monkeypatch):
    pytest.importorskip("matplotlib")
    text = README.read_text(encoding="utf-8")
    block = re.search(r"<!-- python-example[^>]*-->\n```python\n(.*?)```", text, re.S)
    assert block, "the README lost its marked Python example"
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("MPLBACKEND", "Agg")
    import matplotlib

    matplotlib.use("Agg")
    namespace = {}
    with warnings.catch_warnings():
        # A reader's first run says nothing it need not (it ended with save's FitWarning).
        warnings.simplefilter("error")
        exec(compile(block.group(1), "README.md", "exec"), namespace)
    assert (tmp_path / "moons.png").stat().st_size > 10_000
    assert (tmp_path / "moons.json").exists()
    assert namespace["scores"].shape == (500,)
