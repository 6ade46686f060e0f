// SPDX-License-Identifier: MIT
// Work started off the GUI thread, with subnormal numbers flushed while it runs.
#pragma once

#include "core/util/float_mode.h"

#include <QtConcurrent/QtConcurrentRun>

#include <type_traits>
#include <utility>

namespace sosrep::ui {

/// A job that runs `f` on its worker with that thread and its OpenMP threads computing in
/// flush-to-zero mode (FlushSubnormalsScope, issue 48). A class with a declared result type,
/// not a lambda around `f`: QtConcurrent's overload checks on a lambda that returns another
/// lambda's result took GCC 12 past 20 GB on the hue and ROC jobs.
template <typename F> class FlushedJob
{
public:
    explicit FlushedJob(F f) : m_f(std::move(f)) {}
    std::invoke_result_t<const F&> operator()() const
    {
        const FlushSubnormalsScope flushed(FlushSubnormalsScope::Threads::CallerAndPool);
        return m_f();
    }

private:
    F m_f;
};

/// QtConcurrent::run(f) through FlushedJob: every job the views start goes through here, so
/// none depends on the thread pool's threads having inherited the mode from the GUI thread.
template <typename F> auto runInWorker(F f)
{
    return QtConcurrent::run(FlushedJob<F>(std::move(f)));
}

} // namespace sosrep::ui
