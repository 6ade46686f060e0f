// SPDX-License-Identifier: MIT
#pragma once

namespace sosrep::bench {

/// Issue 10: density ratios on three Gaussian shifts with a known ratio (1-D; 2-D; 10-D with two
/// shifted coordinates), n = m = 1000 and 5000: the NMSE of each estimator (FIRE with each loss,
/// uLSIF with leave-one-out, TIKDE, the SOSREP plug-in; all with their default tuning) on 5000
/// fresh rows of p, and seconds per fit; medians over `seeds` seeds. Prints a markdown table.
void densityRatios(int seeds);

} // namespace sosrep::bench
