// SPDX-License-Identifier: MIT
// Benchmark: the default fit on the shuttle split beside its peers (median of 3 runs).
#pragma once

#include <string>

namespace sosrep::bench {

/// Issue 25: the default fit (`sosrep fit --train --test` with its defaults: purpose density,
/// 15-point sweep, final fit, scoring) on the seed-42 shuttle split (7000 rows), median of 3,
/// beside its peer timed in the same run: scikit-learn's KernelDensity with GridSearchCV (15
/// bandwidths, 5 folds, 2 jobs; scripts/peer_kde_fit.py under Debian's python3); the app's
/// batch run on all of shuttle (sosrep-studio beside this binary, offscreen), from its start
/// until the density view has its data, beside the same peer; FIRE's J tuning at n = 1000 on
/// the three known shifts beside uLSIF-LOO (seconds and NMSE, median of 3 seeds). Then the
/// scaling table of the default fit against N (shuttle subsamples: dense up to 10 000 rows,
/// Nystroem landmarks beyond; skin's 245 057 rows), the peer up to 10 000 rows, and the
/// slopes of log time against log N. `python` is the interpreter with scikit-learn; without
/// it the peer's cells say so. Prints markdown tables.
void defaultFitSpeed(const std::string& adbenchDir, const std::string& python,
                     const std::string& peerScript);

} // namespace sosrep::bench
