// SPDX-License-Identifier: MIT
// A scope that runs Eigen and OpenMP on one thread.
#pragma once

#ifdef _OPENMP
#include <omp.h>
#endif

namespace sosrep {

/// Runs Eigen's matrix products on the calling thread only, for as long as it lives. Eigen
/// splits every product above a small size over OpenMP threads; for the m x m products of an
/// iterative solver (m ~ 50) the hand-offs cost more than the work: a 3666-step FISTA run took
/// 11.6 s with two threads on a busy machine and 0.8 s with one. omp_set_num_threads changes
/// only the calling thread's setting, so other threads keep theirs; the old value is restored.
class SingleThreadScope
{
public:
#ifdef _OPENMP
    SingleThreadScope() : m_saved(omp_get_max_threads())
    {
        omp_set_num_threads(1);
    }
    ~SingleThreadScope()
    {
        omp_set_num_threads(m_saved);
    }
#else
    SingleThreadScope() = default;
#endif
    SingleThreadScope(const SingleThreadScope&) = delete;
    SingleThreadScope& operator=(const SingleThreadScope&) = delete;

private:
#ifdef _OPENMP
    int m_saved;
#endif
};

} // namespace sosrep
