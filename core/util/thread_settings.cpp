// SPDX-License-Identifier: MIT
// The calling thread's OpenMP thread count and dynamic adjustment, read and set.
#include "core/util/thread_settings.h"

#include <algorithm>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace sosrep {

ThreadSettings currentThreadSettings()
{
#ifdef _OPENMP
    return {omp_get_max_threads(), omp_get_dynamic() != 0};
#else
    return {};
#endif
}

void applyThreadSettings(const ThreadSettings& settings)
{
#ifdef _OPENMP
    omp_set_num_threads(std::max(1, settings.threads));
    omp_set_dynamic(settings.dynamic ? 1 : 0);
#else
    (void)settings;
#endif
}

int availableCores()
{
#ifdef _OPENMP
    return std::max(1, omp_get_num_procs());
#else
    return 1;
#endif
}

} // namespace sosrep
