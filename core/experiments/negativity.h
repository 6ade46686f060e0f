// SPDX-License-Identifier: MIT
// The paper's negativity experiment: how often f <= 0 on the data, over seeded runs.
#pragma once

#include "core/kernels/kernel.h"
#include "core/types.h"

#include <functional>
#include <string>
#include <vector>

namespace sosrep {

/// The paper's negativity experiment (arXiv section 6.3, Fig. 3; ICML section 6.3): from many
/// non-negative initialisations, natural (eq. 8) and standard (eq. 7) gradient descent run side
/// by side on one kernel, and the share of training points with f(x_i) = (K alpha)_i < 0 is
/// recorded at every iteration. The paper plots, per data set and method, the mean of the worst
/// 5 shares among 50 initialisations at the end of 1000 iterations; we keep the whole path.
/// The paper leaves the step size, N_z and a open; our defaults are design.md section 1's.
struct NegativitySettings
{
    KernelType kernel = KernelType::Sdo;
    double lengthScale = 0.0;       // > 0: this l; 0: lengthScaleFactor x median distance
    double lengthScaleFactor = 0.1; // of the median pairwise distance of the (scaled) rows
    int features = 4000;            // random Fourier features of the SDO kernel (N_z)
    double learningRate = 0.01;     // lambda of both updates
    int iterations = 1000;          // per run
    int initializations = 50;       // alpha_i = |N(0,1)| with seeds seed, seed + 1, ...
    int worst = 5;                  // the statistic: mean of the `worst` largest shares
    int maxRows = 1500;             // seeded subsample of larger data
    uint64_t seed = 0;              // subsample, random features (seed) and initialisations

    void validate() const; // throws ParameterError naming the setting
};

/// One data set's runs. Rows of the share matrices are iterations 0..iterations, columns the
/// initialisations. A run that diverges (alpha^T K alpha above 1e12 or a non-finite value, as
/// GradientSolver decides) stops; its last share is carried forward and divergedAt holds the
/// iteration (-1: never).
struct NegativityRun
{
    std::string name;
    Eigen::Index rows = 0;
    double lengthScale = 0.0;
    std::string backend;
    Matrix natural;  // (iterations + 1) x initializations
    Matrix standard; // same
    std::vector<int> naturalDivergedAt;
    std::vector<int> standardDivergedAt;
    long clamped = 0; // |(K alpha)_i| floored before the inverse (design.md section 1), all runs
    bool cancelled = false;
    int completedIterations = 0;

    /// Mean of the `worst` largest shares at each iteration (the paper's statistic per step).
    static Vector worstMean(const Matrix& shares, int worst);
    static int divergedCount(const std::vector<int>& at);
};

/// progress(done, total) is called after every iteration; returning false cancels (the run then
/// holds the iterations done so far, cancelled = true).
using NegativityProgress = std::function<bool(long done, long total)>;

/// Runs every initialisation of both methods on `x` (already scaled; subsampled here when it has
/// more than maxRows rows). The initialisations' coefficient vectors are stepped together: one
/// kernel product K [A_natural A_standard] per iteration, so a 1500-row set costs a few matrix
/// products per step instead of 100 matrix-vector products.
NegativityRun runNegativity(const MatrixRef& x, const std::string& name,
                            const NegativitySettings& settings,
                            const NegativityProgress& progress = {});

} // namespace sosrep
