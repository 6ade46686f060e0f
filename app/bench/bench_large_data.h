// SPDX-License-Identifier: MIT
// Benchmark: speed at small length scales and on the largest shared sets (issue 48).
#pragma once

#include <string>

namespace sosrep::bench {

/// Issue 48's rows of `sosrep-bench DIR --speed`, printed as markdown tables:
/// - a fit at a fixed l on the seed-42 shuttle split (6999 rows, min-max), l = 0.01 beside l =
///   the median pairwise distance, median of 3 each, and the ratio of their times;
/// - all of shuttle (49 097 rows): the default fit (`sosrep fit --train`, run as its own process
///   from beside this binary: seconds and peak resident memory), and at that fit's l the exact
///   kernel (sparse) beside Nystroem's (time, and the largest relative difference of their
///   densities at every row);
/// - all of skin (245 057 rows): the default fit as its own process, seconds and peak memory.
void largeDataSpeed(const std::string& adbenchDir);

} // namespace sosrep::bench
