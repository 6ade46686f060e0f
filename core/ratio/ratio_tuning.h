// SPDX-License-Identifier: MIT
// Cross-validated choice of t and lambda for ratio estimators.
#pragma once

#include "core/ratio/fire_system.h"
#include "core/ratio/j_criterion.h"

#include <functional>
#include <string>
#include <vector>

namespace sosrep {

/// The (t, lambda) grid of the paper's tuning (section 6.1, digest 1.10).
struct RatioGrid
{
    std::vector<double> t;
    std::vector<double> lambda;
    double t0 = 0.0; // the base of t
};

/// t = t0 2^j for j = 0..9 with t0 the mean distance of a p row to its 10 nearest p rows, used
/// as a variance as the paper does; lambda = 1e-5, ..., 1e-10 (for the unit-peak kernel,
/// ratio_gaussian.h).
/// Type II (`typeTwo`) is biased by O(t) (Theorem 3) and needs a smaller t than Type I (digest
/// section 4): its grid is shifted down to t0 2^j, j = -6..3.
RatioGrid defaultRatioGrid(const MatrixRef& xp, bool typeTwo = false);

struct RatioTuningConfig
{
    int folds = 5;
    TestFamily family = TestFamily::Both;
    int halfSpaces = 200;
    uint64_t seed = 0;
};

/// One fold of the p rows: fit on `trainP` (and all of q), judge on `heldP`.
struct FoldInput
{
    const Matrix& trainP;
    const Matrix& heldP;
    const Vector* trainQ = nullptr; // Type II: q at the rows
    const Vector* heldQ = nullptr;
};
/// A ratio estimate of one fold at one t: its values at the held-out rows for any lambda (both
/// criteria judge the fit out of sample there).
struct FoldValues
{
    Vector held;
};
using FoldPath = std::function<FoldValues(double lambda)>;
using FoldFitter = std::function<FoldPath(const FoldInput& fold, double t)>;

/// The criterion over the grid, averaged over the folds.
struct JSurface
{
    std::vector<double> t;
    std::vector<double> lambda;
    Matrix j; // t.size() x lambda.size(); +inf where a fit gave non-finite values
    int bestT = -1;
    int bestLambda = -1;
    /// "J": Eq. 36 with means, out of sample on the held-out p rows against all of q (Type I).
    /// "residual": Type II has no q sample, so J's q side is unknown. Instead f is evaluated
    /// out of sample on the held-out rows and the Type II equation is checked with them at the
    /// fold's training rows: mean (K_{s,held} f - q)^2 / mean q^2, K_{s,held} the delta kernel
    /// c g_s averaged over the held-out rows. One width s = t0/8 serves every candidate t: with
    /// s = t, wide kernels hide their own oscillation (2-D shift, NMSE 0.535 against 0.125).
    std::string criterion;
    int folds = 0;
    int testFunctions = 0;
    double residualWidth = 0.0; // s of the Type II residual
    int nonFinite = 0;          // grid points whose fit gave non-finite values (counted, left +inf)
    double t0 = 0.0;
    bool cancelled = false;

    double best() const { return bestT < 0 ? 0.0 : j(bestT, bestLambda); }
};

/// k-fold tuning over the grid (Fig. 1 of the paper: each fold fits on the other p folds and
/// all of q). Throws ParameterError("folds") when folds < 2 or folds > the p rows. `progress`
/// gets (t index, grid size) before each fold, possibly from worker threads (the folds of one t
/// run in parallel), and may cancel.
JSurface tuneRatio(const Matrix& xp, const RatioTarget& target, const RatioGrid& grid,
                   const RatioTuningConfig& config, const FoldFitter& fitter,
                   const ProgressFn& progress = {});

/// The seeded fold of every p row (0..folds-1), balanced.
std::vector<int> foldAssignment(Eigen::Index rows, int folds, uint64_t seed);

} // namespace sosrep
