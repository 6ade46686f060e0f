// SPDX-License-Identifier: MIT
// `sosrep adbench`: a method against a reference with a paired bootstrap interval.
#include "app/cli/adbench_stats.h"

#include "core/random.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace sosrep::cli {

PairedComparison pairedComparison(const std::vector<double>& method,
                                  const std::vector<double>& reference, double margin,
                                  int resamples, uint64_t seed)
{
    std::vector<double> diff;
    PairedComparison c;
    for (size_t d = 0; d < method.size() && d < reference.size(); ++d) {
        if (std::isfinite(method[d]) && std::isfinite(reference[d])) {
            diff.push_back(method[d] - reference[d]);
            c.won += diff.back() > margin;
            c.lost += diff.back() < -margin;
        }
    }
    c.datasets = int(diff.size());
    const double nan = std::numeric_limits<double>::quiet_NaN();
    if (diff.empty()) {
        c.meanDifference = c.low = c.high = nan;
        return c;
    }
    double sum = 0.0;
    for (double v : diff) {
        sum += v;
    }
    c.meanDifference = sum / double(diff.size());
    if (diff.size() < 2) {
        c.low = c.high = nan;
        return c;
    }
    Rng rng(seed);
    std::vector<double> means(static_cast<size_t>(resamples));
    for (double& m : means) {
        double s = 0.0;
        for (size_t k = 0; k < diff.size(); ++k) {
            s += diff[rng.below(diff.size())];
        }
        m = s / double(diff.size());
    }
    std::sort(means.begin(), means.end());
    // Percentile interval: the 2.5 % and 97.5 % order statistics of the resampled means.
    const auto at = [&](double q) {
        const auto i = static_cast<size_t>(std::floor(q * double(resamples - 1) + 0.5));
        return means[std::min(i, means.size() - 1)];
    };
    c.low = at(0.025);
    c.high = at(0.975);
    return c;
}

} // namespace sosrep::cli
