// SPDX-License-Identifier: MIT
// The floating-point mode of each thread of an OpenMP region (tests of issue 48).
#pragma once

#include "core/util/float_mode.h"

#include <omp.h>

#include <vector>

/// Whether each of `threads` threads of a region started from the calling thread flushes
/// subnormal numbers (index = thread number; the test must be compiled with OpenMP).
inline std::vector<int> poolModes(int threads)
{
    std::vector<int> modes(static_cast<size_t>(threads), -1);
    omp_set_dynamic(0);
#pragma omp parallel num_threads(threads)
    modes[static_cast<size_t>(omp_get_thread_num())] = sosrep::flushesSubnormals() ? 1 : 0;
    return modes;
}
