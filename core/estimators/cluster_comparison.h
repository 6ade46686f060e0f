// SPDX-License-Identifier: MIT
// Fig. 2 of the SOSREP paper: how well a density separates two clusters, against KDE.
#pragma once

#include "core/estimators/kernel_field_model.h"

#include <string>
#include <vector>

namespace sosrep {

/// The paper's SOSREP-vs-KDE cluster comparison (arXiv App. F.1, Fig. 4), for any two models:
/// for two clusters, (b) the per-point log values of both models ordered by cluster, each
/// shifted to mean 0 on cluster 1 and smoothed by a running average, and (a) the kernel values
/// within each cluster and between them (of the first model's kernel, else the second's).
/// Prop. 9 predicts a larger gap between the clusters for SOSREP than for KDE.
struct ClusterComparison
{
    std::string firstEstimator; // e.g. "sosrep"
    std::string secondEstimator;
    std::vector<double> first;         // shifted log values, cluster 1 rows then cluster 2
    std::vector<double> second;        // the same for the second model
    std::vector<double> firstSmoothed; // centred running averages of the two curves
    std::vector<double> secondSmoothed;
    int cluster1Size = 0;
    double firstGap = 0.0; // mean(cluster 2) - mean(cluster 1) after the shift
    double secondGap = 0.0;
    std::vector<double> within1; // unit-diagonal kernel values inside cluster 1 (off-diagonal)
    std::vector<double> within2;
    std::vector<double> between;
};

/// `cluster` holds 0 (cluster 1) or 1 (cluster 2) per row of x; both must be non-empty.
/// Kernel values use at most `maxPairsPoints` points per cluster (seeded subsample).
ClusterComparison compareClusters(const FittedModel& first, const FittedModel& second,
                                  const MatrixRef& x, const Eigen::VectorXi& cluster, int window,
                                  int maxPairsPoints = 400);

/// Centred running mean with the given window (shrinks at the ends).
std::vector<double> runningMean(const std::vector<double>& v, int window);

/// Counts of `values` in `bins` equal bins over [lo, hi] (values outside are clamped in).
std::vector<double> histogram(const std::vector<double>& values, double lo, double hi, int bins);

} // namespace sosrep
