# SPDX-License-Identifier: MIT
"""Issue 37: a fitted or loaded model keeps what scoring needs (a loaded 14 000-row SOSREP held
+813 MB, its dense N x N kernel, for a file of 14 000 x d numbers)."""
import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import sosrep

# Resident memory of a fresh interpreter before and after a step, with freed heap memory given
# back to the system first (glibc's malloc_trim), so the difference is what the step keeps.
_PROBE = textwrap.dedent("""
    import ctypes, json, os, sys
    import numpy as np, sosrep
    libc = ctypes.CDLL("libc.so.6")
    def rss():
        libc.malloc_trim(0)
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    path, mode = sys.argv[1], sys.argv[2]
    X = np.load(path + ".npy")
    before = rss()
    if mode == "load":
        model = sosrep.load(path)
    else:
        model = sosrep.Estimator(mode, length_scale=0.5).fit(X)
    model.score_samples(X[:10])
    print(json.dumps({"kept": rss() - before, "data": X.nbytes}))
""")


def _kept(tmp_path, mode, path):
    out = subprocess.run([sys.executable, "-c", _PROBE, str(path), mode], check=True,
                         capture_output=True, text=True,
                         env=dict(os.environ, OMP_NUM_THREADS="1"))
    return json.loads(out.stdout)


def test_a_loaded_14000_row_model_holds_at_most_twice_its_training_data(tmp_path):
    X = np.random.default_rng(0).normal(size=(14_000, 20))
    path = tmp_path / "m.json"
    np.save(str(path) + ".npy", X)
    sosrep.SOSREP(length_scale=0.5, backend="dense", iterations=5).fit(X).save(path)
    loaded = _kept(tmp_path, "load", path)
    assert loaded["kept"] <= 2 * loaded["data"], loaded  # was ~ 784 MB (N x N) + the rows


def test_a_fitted_kde_or_sosrep_does_not_keep_the_n_by_n_kernel(tmp_path):
    X = np.random.default_rng(1).normal(size=(6_000, 20))
    path = tmp_path / "x"
    np.save(str(path) + ".npy", X)
    for name in ("kde", "sosrep"):
        fitted = _kept(tmp_path, name, path)
        # The fit's own copy of the rows, the model's and its scaler's: a few times the data,
        # not the 144 MB of a 6000 x 6000 kernel.
        assert fitted["kept"] <= 6 * fitted["data"], (name, fitted)
