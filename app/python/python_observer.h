// SPDX-License-Identifier: MIT
// The fits' observer as Python sees it: the progress callback, and Ctrl+C as a cancel.
#pragma once

#include "core/pipeline/fit_route.h"
#include "core/util/float_mode.h"

#include <pybind11/pybind11.h>

#include <algorithm>
#include <atomic>
#include <string>

namespace sosrep::python {

/// The fit's observer: Python's progress callback, and Ctrl+C (or an exception from the
/// callback) as a cancel, answered at the next solver step. Python is entered with the GIL.
struct PythonObserver
{
    pybind11::object progress;
    std::atomic<bool> stop{false};
    /// This fit's share of the whole call's progress (of 1000): a fit followed by the anomaly
    /// purpose's (purpose=auto) reports [0, 900), that one [900, 1000], so the callback sees
    /// one total, never going back, reaching it once (fitModel's contract, kept across both).
    int from = 0;
    int to = 1000;
    bool last = true;

    FitObserver observer()
    {
        FitObserver o;
        o.cancelled = [this] {
            if (!stop) {
                pybind11::gil_scoped_acquire gil;
                const FlushSubnormalsScope::Paused usersMode; // Python's signal handlers run
                if (PyErr_CheckSignals() != 0) {
                    stop = true; // the KeyboardInterrupt stays set: raised after the fit
                }
            }
            return stop.load();
        };
        if (!progress.is_none()) {
            o.progress = [this](const std::string& stage, int done, int total) {
                if (stop) {
                    return;
                }
                const int at = from + int((long long)(to - from) * done / std::max(total, 1));
                const std::string name =
                    !last && stage == "done" ? "fit for anomaly scores" : stage;
                pybind11::gil_scoped_acquire gil;
                const FlushSubnormalsScope::Paused usersMode; // the callback is the user's code
                try {
                    progress(name, at, 1000);
                } catch (pybind11::error_already_set& e) {
                    e.restore(); // raised again after the fit
                    stop = true;
                }
            };
        }
        return o;
    }
};

} // namespace sosrep::python
