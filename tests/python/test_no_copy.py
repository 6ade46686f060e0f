# SPDX-License-Identifier: MIT
"""Scoring reads the caller's array where the core can (float64, Fortran order) and converts
any other layout a block of rows at a time: no second copy of the whole input, ever.

Measured, not assumed: the process's peak resident size (VmHWM, reset through
/proc/self/clear_refs) while scoring an array of 128 MB. A whole copy would add 128 MB; the
scorer's blocks add 4-6 MB. A control copies the array inside the same window, to show
the measurement sees a copy of that size."""
import gc

import numpy as np
import pytest

import sosrep

ROWS, COLS = 500_000, 32  # 128 MB in float64
MB = 1 << 20
BLOCKS_BUDGET = 32 * MB  # the scorer's blocks (8192 rows) and the 4 MB of scores


def _resident():
    """The current and peak resident size in bytes."""
    fields = {}
    with open("/proc/self/status") as status:
        for line in status:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                fields[key] = int(value.split()[0]) * 1024
    return fields["VmRSS"], fields["VmHWM"]


def _peak_increase(work):
    """How far above the resident size before `work()` the peak went during it."""
    gc.collect()
    try:
        with open("/proc/self/clear_refs", "w") as refs:
            refs.write("5")  # reset the peak to the current size (Linux 4.0 and later)
    except OSError as error:
        pytest.skip(f"cannot reset the peak resident size: {error}")
    before, peak = _resident()
    assert peak - before < 4 * MB, "the peak did not reset"
    work()
    _, peak = _resident()
    return peak - before


@pytest.fixture(scope="module")
def model():
    rng = np.random.default_rng(7)
    return sosrep.KDE(length_scale=0.5).fit(rng.standard_normal((200, COLS)))


def _big(order, dtype):
    """ROWS x COLS normal values, built column by column so no temporary raises the peak."""
    rng = np.random.default_rng(11)
    x = np.empty((ROWS, COLS), dtype=dtype, order=order)
    for j in range(COLS):
        x[:, j] = rng.standard_normal(ROWS)
    return x


def _assert_scored_in_place(model, x):
    reference = model.score_samples(np.asfortranarray(x, dtype=np.float64))
    scores = []
    grew = _peak_increase(lambda: scores.append(model.score_samples(x)))
    assert np.array_equal(scores[0], reference)
    assert grew < BLOCKS_BUDGET, f"scoring raised the peak by {grew / MB:.0f} MB"


@pytest.mark.parametrize(
    "order,dtype",
    [("F", np.float64), ("C", np.float64), ("C", np.float32), ("F", np.float32)],
)
def test_scoring_holds_no_copy_of_the_input(model, order, dtype):
    _assert_scored_in_place(model, _big(order, dtype))


def test_strided_input_holds_no_copy(model):
    _assert_scored_in_place(model, _big("C", np.float64)[::2])  # every other row


def test_the_measurement_sees_a_copy(model):
    x = _big("F", np.float64)

    def copy_then_score():
        y = np.array(x, copy=True)  # what a converting wrapper would do
        model.score_samples(y)

    grew = _peak_increase(copy_then_score)
    assert grew > x.nbytes * 0.9, f"a 128 MB copy raised the peak by only {grew / MB:.0f} MB"
