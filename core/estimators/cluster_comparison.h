// SPDX-License-Identifier: MIT
#pragma once

#include "core/estimators/density_model.h"

#include <vector>

namespace sosrep {

/// The paper's SOSREP-vs-KDE cluster comparison (arXiv App. F.1, Fig. 4): for two clusters,
/// (b) the per-point log densities of both models ordered by cluster, each shifted to mean 0 on
/// cluster 1 and smoothed by a running average, and (a) the kernel values within each cluster and
/// between them. Prop. 9 predicts a larger gap between the clusters for SOSREP than for KDE.
struct ClusterComparison
{
    std::vector<double> sosrep;         // shifted log pre-density, cluster 1 rows then cluster 2
    std::vector<double> kde;            // shifted log density, same order
    std::vector<double> sosrepSmoothed; // centred running averages of the two curves
    std::vector<double> kdeSmoothed;
    int cluster1Size = 0;
    double sosrepGap = 0.0; // mean(cluster 2) - mean(cluster 1) after the shift
    double kdeGap = 0.0;
    std::vector<double> within1; // unit-diagonal kernel values inside cluster 1 (off-diagonal)
    std::vector<double> within2;
    std::vector<double> between;
};

/// `cluster` holds 0 (cluster 1) or 1 (cluster 2) per row of x; both must be non-empty.
/// Kernel values use at most `maxPairsPoints` points per cluster (seeded subsample).
ClusterComparison compareClusters(const DensityModel& sosrep, const DensityModel& kde,
                                  const MatrixRef& x, const Eigen::VectorXi& cluster, int window,
                                  int maxPairsPoints = 400);

/// Centred running mean with the given window (shrinks at the ends).
std::vector<double> runningMean(const std::vector<double>& v, int window);

/// Counts of `values` in `bins` equal bins over [lo, hi] (values outside are clamped in).
std::vector<double> histogram(const std::vector<double>& values, double lo, double hi, int bins);

} // namespace sosrep
