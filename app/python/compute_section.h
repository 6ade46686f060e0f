// SPDX-License-Identifier: MIT
// A call into core from Python: the GIL released and subnormal numbers flushed while it runs.
#pragma once

#include "core/util/float_mode.h"

#include <pybind11/pybind11.h>

namespace sosrep::python {

/// Core's work inside a Python call. The GIL is released first (other Python threads run
/// meanwhile) and the calling thread and its OpenMP threads flush subnormal numbers (issue 48);
/// on exit the mode of each is the caller's again, before the GIL is taken back, so NumPy in
/// the same process never sees ours. Callbacks into Python from inside pause it
/// (FlushSubnormalsScope::Paused).
class ComputeSection
{
public:
    ComputeSection() = default;
    ComputeSection(const ComputeSection&) = delete;
    ComputeSection& operator=(const ComputeSection&) = delete;

private:
    pybind11::gil_scoped_release m_release;
    FlushSubnormalsScope m_flushed{FlushSubnormalsScope::Threads::CallerAndPool};
};

} // namespace sosrep::python
