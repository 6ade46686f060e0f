// SPDX-License-Identifier: MIT
// Transparent huge pages for large buffers, where the kernel allows them.
#pragma once

#include <cstddef>
#include <cstdint>

#ifdef __linux__
#include <sys/mman.h>
#endif

namespace sosrep {

/// Asks Linux for transparent huge pages on a large buffer (a dense kernel matrix is rebuilt at
/// every grid point of a sweep: with 4 KiB pages, faulting in its 400 MB at N = 7000 cost about
/// a third of the sweep in the kernel's page-fault path). Only whole 2 MiB pages inside the buffer
/// are advised; elsewhere, or where the kernel says no, nothing changes.
inline void adviseHugePages(void* data, std::size_t bytes)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    constexpr std::uintptr_t kHuge = std::uintptr_t(2) << 20;
    if (bytes < 2 * kHuge) {
        return;
    }
    const std::uintptr_t begin =
        (reinterpret_cast<std::uintptr_t>(data) + kHuge - 1) & ~(kHuge - 1);
    const std::uintptr_t end = (reinterpret_cast<std::uintptr_t>(data) + bytes) & ~(kHuge - 1);
    if (end > begin) {
        madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
    }
#else
    (void)data;
    (void)bytes;
#endif
}

} // namespace sosrep
