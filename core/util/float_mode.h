// SPDX-License-Identifier: MIT
// Flush-to-zero and denormals-are-zero while computing, the caller's mode restored after.
#pragma once

namespace sosrep {

/// Whether the calling thread flushes subnormal results to zero and reads subnormal operands as
/// zero (x86: MXCSR's FTZ and DAZ bits; AArch64: FPCR's FZ bit). False where neither exists.
bool flushesSubnormals();

/// While it lives, the threads that compute run with flush-to-zero and denormals-are-zero; on
/// exit each gets back the mode it had. Why (issue 48): at a small length scale most kernel
/// entries exp(-r^2 / 2l^2) and many of their products fall below the smallest normal double
/// (2.2e-308); on CPUs that handle subnormal numbers in microcode each such operation costs
/// ~100 times a normal one, and a default fit ran 5.5 times slower on an Intel AVX-512 machine
/// than with the bits set. Nothing above 1e-300 changes (docs/math.md).
///
/// `Caller` sets the calling thread's mode only: every parallel region in core opens one per
/// thread. `CallerAndPool` also sets it on the OpenMP threads the caller's parallel regions run
/// on (Eigen's threaded matrix products among them) and restores theirs on exit, so a library
/// sharing the pool in the same process (scikit-learn's OpenMP loops next to ours in Python)
/// sees its own mode again; the front ends open one around each call into core. The pool's
/// threads are started before the caller's mode changes, so threads created during the scope
/// do not inherit it as their own. Nested scopes are cheap and leave the outermost in charge.
class FlushSubnormalsScope
{
public:
    enum class Threads
    {
        Caller,
        CallerAndPool
    };
    explicit FlushSubnormalsScope(Threads threads = Threads::Caller);
    ~FlushSubnormalsScope();
    FlushSubnormalsScope(const FlushSubnormalsScope&) = delete;
    FlushSubnormalsScope& operator=(const FlushSubnormalsScope&) = delete;

    /// While it lives, the calling thread runs in its own mode again: the one it had before the
    /// outermost scope (a Python progress callback runs the user's code, in the user's mode).
    class Paused
    {
    public:
        Paused();
        ~Paused();
        Paused(const Paused&) = delete;
        Paused& operator=(const Paused&) = delete;

    private:
        unsigned m_mode = 0;
        bool m_paused = false;
    };

private:
    int m_poolThreads = 0; // threads of the pool whose mode this scope set (0: the caller's)
};

} // namespace sosrep
