// SPDX-License-Identifier: MIT
// Benchmark: density-ratio fits on known Gaussian shifts (time, NMSE, tuned t and lambda).
#pragma once

#include "core/ratio/known_shifts.h"

#include <string>
#include <utility>
#include <vector>

namespace sosrep::bench {

/// One ratio fit on a known shift: seconds, NMSE on 5000 fresh rows of p, the tuned t and
/// lambda (or threshold), and the form (exact or features).
struct RatioRun
{
    double seconds = 0.0;
    double nmse = 0.0;
    double t = 0.0;
    double lambda = 0.0;
    std::string form = "-";
};
/// `estimator` with `options` and seed `s` on n rows of p and of q drawn from `shift` (the
/// seeds of densityRatios' table), with its default tuning.
RatioRun timeRatioFit(const GaussianShift& shift, int n, int s, const std::string& estimator,
                      const std::vector<std::pair<std::string, std::string>>& options);

/// Issue 10: density ratios on three Gaussian shifts with a known ratio (1-D; 2-D; 10-D with two
/// shifted coordinates), n = m = 1000 and 5000: the NMSE of each estimator (FIRE with each loss,
/// uLSIF with leave-one-out, TIKDE, the SOSREP plug-in; all with their default tuning) on 5000
/// fresh rows of p, and seconds per fit; medians over `seeds` seeds. Prints a markdown table.
void densityRatios(int seeds);

} // namespace sosrep::bench
