// SPDX-License-Identifier: MIT
// `sosrep adbench`: a method against a reference on the same datasets, with a paired bootstrap
// interval, sets won and lost, and ranks.
#pragma once

#include <cstdint>
#include <vector>

namespace sosrep::cli {

/// A method against a reference over the datasets where both have a value (per-dataset means
/// over seeds).
struct PairedComparison
{
    int datasets = 0;
    double meanDifference = 0.0; // mean of method - reference
    double low = 0.0;            // 95 % paired bootstrap percentile interval of that mean
    double high = 0.0;
    int won = 0;  // datasets where the method is more than `margin` above the reference
    int lost = 0; // ... more than `margin` below
};

/// The paired comparison of `method` with `reference` (indexed alike; NaN where a dataset has no
/// value): the datasets are resampled with replacement `resamples` times, seeded, so that a
/// difference that a few sets carry gets a wide interval. NaN interval with fewer than 2 sets.
PairedComparison pairedComparison(const std::vector<double>& method,
                                  const std::vector<double>& reference, double margin = 0.05,
                                  int resamples = 2000, uint64_t seed = 20261127);

} // namespace sosrep::cli
