# SPDX-License-Identifier: MIT
"""Issue 48: the extension computes with subnormal numbers flushed to zero, and the caller's
floating-point mode is its own again after every call (and inside its progress callback), so
NumPy in the same process keeps its subnormal numbers."""
import numpy as np

import sosrep


def keeps_subnormals():
    """NumPy on the calling thread: 1e-300 * 1e-10 is the subnormal 1e-310 unless results are
    flushed to zero, and a subnormal operand is read as itself unless it is read as zero."""
    product = (np.array([1e-300]) * np.array([1e-10]))[0]
    operand = (np.array([1e-310]) * np.array([1.0]))[0]
    return product != 0.0 and operand != 0.0


def test_the_callers_mode_is_unchanged_after_fit_score_samples_and_sample(moons):
    assert keeps_subnormals()
    est = sosrep.SOSREP().fit(moons)
    assert keeps_subnormals()
    est.score_samples(moons)
    assert keeps_subnormals()
    est.sample(20, random_state=0)
    assert keeps_subnormals()
    kde = sosrep.KDE().fit(moons)
    kde.score_samples(moons)
    assert keeps_subnormals()


def test_a_progress_callback_runs_in_the_callers_mode(moons):
    seen = []

    def progress(stage, done, total):
        seen.append(keeps_subnormals())

    sosrep.SOSREP(length_scale=0.1).fit(moons, progress=progress)
    assert seen and all(seen)
    assert keeps_subnormals()

