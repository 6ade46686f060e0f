// SPDX-License-Identifier: MIT
// Exceptions carried out of OpenMP parallel regions to the calling thread.
#pragma once

#include <atomic>
#include <exception>
#include <mutex>

namespace sosrep {

/// Carries an exception out of an OpenMP parallel region. An exception may not leave a
/// region or a thread of its team: the runtime calls std::terminate, which turned a
/// std::bad_alloc on a pool thread into SIGABRT in the CLI, the app and the Python interpreter
/// (issue 52, item 1). Every loop body runs through run(), which keeps the first exception and
/// makes the remaining iterations return at once; the caller rethrows it after the region,
/// where it reaches the front end's handler (exit 6, the app's banner, MemoryError).
///
///     ParallelFailure failure;
///     #pragma omp parallel for
///     for (...) failure.run([&] { ... });
///     failure.rethrow();
///
/// Work shared by `omp for` must still be reached by every thread of the team, so run() wraps
/// the bodies, never the worksharing construct itself.
class ParallelFailure
{
public:
    template <typename F> void run(F&& f) noexcept
    {
        if (failed()) {
            return;
        }
        try {
            f();
        } catch (...) {
            const std::lock_guard<std::mutex> lock(m_mutex);
            if (!m_error) {
                m_error = std::current_exception();
            }
            m_failed.store(true, std::memory_order_release);
        }
    }

    /// True once any thread's body threw; later bodies are skipped.
    bool failed() const noexcept { return m_failed.load(std::memory_order_acquire); }

    /// Rethrows the first exception caught, if any. Call after the region, on the caller.
    void rethrow() const
    {
        if (failed()) {
            std::rethrow_exception(m_error);
        }
    }

private:
    std::atomic<bool> m_failed{false};
    std::mutex m_mutex;
    std::exception_ptr m_error;
};

} // namespace sosrep
