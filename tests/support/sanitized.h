// SPDX-License-Identifier: MIT
// The sanitizer job's cut: its instrumented code runs 10-40x slower than the release build's.
#pragma once

namespace sosrep::test {

/// True in the sanitizer and fuzz builds (SOSREP_SANITIZED). A test whose size only repeats
/// the code paths a smaller case already runs (more positions, more samples, a finer grid)
/// takes the smaller size there; the release suite checks the full size's arithmetic.
#ifdef SOSREP_SANITIZED
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif

} // namespace sosrep::test
