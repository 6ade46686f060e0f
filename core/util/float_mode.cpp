// SPDX-License-Identifier: MIT
// Flush-to-zero and denormals-are-zero while computing, the caller's mode restored after.
#include "core/util/float_mode.h"

#ifdef _OPENMP
#include <omp.h>
#endif

#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#endif

namespace sosrep {
namespace {

#if defined(__x86_64__) || defined(__i386__)
// MXCSR: FTZ (bit 15) flushes subnormal results to zero, DAZ (bit 6) reads subnormal operands
// as zero. Both are needed: a product of two normal numbers can be subnormal (FTZ), and a
// single-precision kernel entry converted to double is an operand (DAZ).
constexpr unsigned kBits = 0x8000u | 0x0040u;
unsigned readMode()
{
    return _mm_getcsr();
}
void writeMode(unsigned mode)
{
    _mm_setcsr(mode);
}
#elif defined(__aarch64__)
// FPCR.FZ (bit 24) does both for single and double precision.
constexpr unsigned kBits = 1u << 24;
unsigned readMode()
{
    unsigned long v;
    __asm__ __volatile__("mrs %0, fpcr" : "=r"(v));
    return static_cast<unsigned>(v);
}
void writeMode(unsigned mode)
{
    const unsigned long v = mode;
    __asm__ __volatile__("msr fpcr, %0" : : "r"(v));
}
#else
constexpr unsigned kBits = 0u;
unsigned readMode()
{
    return 0u;
}
void writeMode(unsigned) {}
#endif

// How many scopes hold the thread's mode, and its mode before the outermost of them.
thread_local int t_depth = 0;
thread_local unsigned t_saved = 0;

void enter()
{
    if (t_depth++ == 0) {
        t_saved = readMode();
        writeMode(t_saved | kBits);
    }
}

void leave()
{
    // A pool thread that was not in the entering team (none, with the team's size fixed) has
    // nothing to restore.
    if (t_depth > 0 && --t_depth == 0) {
        writeMode(t_saved);
    }
}

/// Runs `f` once on each of `threads` threads of the caller's pool (the caller included), with
/// the runtime's dynamic adjustment off so that the team is the same every time.
template <typename F> void onEachPoolThread(int threads, F f)
{
#ifdef _OPENMP
    const int dynamic = omp_get_dynamic();
    omp_set_dynamic(0);
#pragma omp parallel num_threads(threads)
    f();
    omp_set_dynamic(dynamic);
#else
    (void)threads;
    f();
#endif
}

bool isCaller()
{
#ifdef _OPENMP
    return omp_get_thread_num() == 0;
#else
    return true;
#endif
}

} // namespace

bool flushesSubnormals()
{
    return kBits != 0u && (readMode() & kBits) == kBits;
}

FlushSubnormalsScope::FlushSubnormalsScope(Threads threads)
{
#ifdef _OPENMP
    const bool outermost = t_depth == 0 && !omp_in_parallel();
    const int poolThreads = omp_get_max_threads();
#else
    const bool outermost = t_depth == 0;
    const int poolThreads = 1;
#endif
    if (threads == Threads::CallerAndPool && outermost && poolThreads > 1) {
        // The pool's threads first, each saving its own mode, and the caller's after the team
        // has ended: a thread libgomp starts for the team inherits the caller's mode, which
        // must still be the caller's own; LLVM's libomp copies the caller's mode into every
        // thread of a team as it starts and gives the caller back its mode from before the
        // region when the team ends, so the caller's change must be made outside the region.
        m_poolThreads = poolThreads;
        onEachPoolThread(m_poolThreads, [] {
            if (!isCaller()) {
                enter();
            }
        });
    }
    enter();
}

FlushSubnormalsScope::~FlushSubnormalsScope()
{
    leave();
    if (m_poolThreads > 0) {
        // The caller's own mode first, then the pool's: a thread the runtime started during the
        // scope (libgomp ends surplus threads when a team shrinks, and starts new ones when it
        // grows again) inherited ours and has no mode of its own saved; it gets the caller's,
        // the one it would have inherited outside the scope.
        const unsigned callers = readMode();
        onEachPoolThread(m_poolThreads, [callers] {
            if (isCaller()) {
                return; // done above
            }
            if (t_depth > 0) {
                leave();
            } else {
                writeMode(callers);
            }
        });
    }
}

FlushSubnormalsScope::Paused::Paused()
{
    if (t_depth > 0) {
        m_mode = readMode();
        m_paused = true;
        writeMode(t_saved);
    }
}

FlushSubnormalsScope::Paused::~Paused()
{
    if (m_paused) {
        writeMode(m_mode);
    }
}

} // namespace sosrep
