// SPDX-License-Identifier: MIT
// Signals noted by a temporary handler during a commit, raised again once it is done.
#include "core/io/deferred_signals.h"

#include <array>
#include <csignal>
#include <mutex>

namespace sosrep::io {
namespace {

constexpr std::array<int, 3> kSignals{SIGINT, SIGTERM, SIGHUP};

volatile std::sig_atomic_t g_noted = 0;

extern "C" void noteSignal(int signal)
{
    if (g_noted == 0) {
        g_noted = signal;
    }
}

/// Nested and concurrent holders (two exports committing at once) share one installation.
std::mutex g_mutex;
int g_holders = 0;
std::array<struct sigaction, kSignals.size()> g_saved;

} // namespace

DeferredSignals::DeferredSignals()
{
    const std::lock_guard<std::mutex> lock(g_mutex);
    if (g_holders++ > 0) {
        return;
    }
    g_noted = 0;
    struct sigaction note = {};
    note.sa_handler = noteSignal;
    sigemptyset(&note.sa_mask);
    note.sa_flags = SA_RESTART;
    for (size_t i = 0; i < kSignals.size(); ++i) {
        ::sigaction(kSignals[i], nullptr, &g_saved[i]);
        if (g_saved[i].sa_handler != SIG_IGN) {
            ::sigaction(kSignals[i], &note, nullptr);
        }
    }
}

DeferredSignals::~DeferredSignals()
{
    int noted = 0;
    {
        const std::lock_guard<std::mutex> lock(g_mutex);
        if (--g_holders > 0) {
            return;
        }
        for (size_t i = 0; i < kSignals.size(); ++i) {
            ::sigaction(kSignals[i], &g_saved[i], nullptr);
        }
        noted = g_noted;
        g_noted = 0;
    }
    if (noted != 0) {
        std::raise(noted);
    }
}

} // namespace sosrep::io
