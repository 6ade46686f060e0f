// SPDX-License-Identifier: MIT
// The calling thread's OpenMP thread count and dynamic adjustment, read and set.
#pragma once

namespace sosrep {

/// OpenMP's per-thread settings: the threads a parallel region started from this thread uses,
/// and whether the runtime may use fewer when the machine is busy (libgomp then subtracts the
/// load average from the cores it has, so a fit does not wait at every barrier for a thread
/// that shares its core with another process).
struct ThreadSettings
{
    int threads = 1;
    bool dynamic = false;
};

/// The calling thread's settings (threads 1 without OpenMP).
ThreadSettings currentThreadSettings();
/// Sets them for the calling thread only (other threads keep theirs); threads >= 1.
void applyThreadSettings(const ThreadSettings& settings);
/// The cores this process may run on.
int availableCores();

} // namespace sosrep
