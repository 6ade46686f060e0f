// SPDX-License-Identifier: MIT
// The length-scale sweep scored by Fisher divergence over folds.
#pragma once

#include "core/estimators/estimator.h"
#include "core/tuning/fisher_divergence.h"
#include "core/tuning/selection_rules.h"

#include <algorithm>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace sosrep {

struct SearchConfig
{
    int gridSize = 15;
    double decades = 2.0; // the grid spans centre * 10^(+-decades)
    double centre = 0.0;  // 0 = median pairwise distance of the training data
    FdEstimator estimator = FdEstimator::Analytic;
    HutchinsonConfig hutchinson;
    Purpose purpose = Purpose::Density;
    SelectionRule rule = SelectionRule::Density; // selection=auto: ruleFor(purpose)
    int neighbours = 3;
    double factor = 2.0; // the ranking rule's multiple of the FD choice
    /// The anomaly rule's neighbourhood: its second scale is the reach of this many neighbours.
    /// 32 was chosen by leave-one-dataset-out among 8, 16 and 32 over 42 ADBench sets and 5
    /// seeds (39 of 42 folds; README, "Choosing l: one rule per purpose").
    int reachNeighbours = 32;
    /// Cross-validation folds of the training rows when no validation rows are given: 0 =
    /// automatic (kAutoFolds below kAutoFoldsRows rows, else one 80/20 split), 1 = one 80/20
    /// split, k >= 2 = k folds, every row validated once and the curve pooled over them.
    int folds = 0;
    static constexpr int kAutoFolds = 5;
    static constexpr long long kAutoFoldsRows = 2000;
    /// The folds to use with n training rows.
    int foldsFor(long long rows) const
    {
        // Automatic folds on fewer than kAutoFolds rows: one per row (leave one out), where
        // five folds of 4 distinct rows could not be made (scikit-learn's sample-weight check
        // fits on 4 points repeated 4 times).
        return folds > 0 ? folds
                         : (rows < kAutoFoldsRows ? int(std::min<long long>(kAutoFolds, rows)) : 1);
    }
    /// Leave validation rows that exactly repeat a fitting row out of the FD average. Score
    /// matching assumes a continuous density; a repeated value is an atom, at which the
    /// Hyvaerinen term of a kernel model tends to -inf as l -> 0 (2 lap f / f ~ -2d/l^2 at a
    /// kernel centre), so a few duplicates decide the whole curve (skin, mammography). The
    /// density and anomaly rules leave them out by default (fd_duplicates=auto).
    bool excludeDuplicates = true;
    /// The sweep's kernel matrices in single precision (option fd_precision; SweepWorkspace
    /// says why it is the default). The final fit is in double either way.
    bool singlePrecision = true;

    /// The anomaly rule's third scale, the median pairwise distance (option wide_scale).
    bool wideScale = false;

    RuleParameters ruleParameters() const { return {neighbours, factor, wideScale}; }
};

struct FdPoint
{
    double lengthScale = 0.0;
    double value = 0.0;    // mean Hyvaerinen term on the validation points (+inf if invalid)
    int invalidPoints = 0; // validation points whose term was not finite
    SolverStatus status = SolverStatus::Converged;
    int iterations = 0;
    double residual = 0.0;
    int kernelProducts = 0;
    double heldOutLogLikelihood = 0.0; // normalized densities: mean log density of validation rows
    /// A refinement midpoint asked for by the density rule (off the log grid).
    bool refinement = false;
    /// How the first fold's kernel was held at this l (KernelOperator::backendName(): dense,
    /// sparse, nystrom...): Auto chooses per length scale (issue 48). Empty for estimators
    /// without a kernel.
    std::string backend;
};

struct SearchResult
{
    std::vector<FdPoint> curve; // sorted by increasing length scale
    Selection selection;
    double centre = 0.0;
    double spacing = 0.0; // median nearest-neighbour distance (the above-spacing rule's floor)
    /// The neighbourhood reach l_k of the validation rows against the fitting rows (the anomaly
    /// rule's second scale; neighbour_reach.h), with its k; 0 when not computed.
    double reach = 0.0;
    int reachNeighbours = 0;
    int excludedDuplicates = 0; // validation rows left out (SearchConfig::excludeDuplicates)
    int folds = 1;              // fitting/validation pairs the curve pools
    int extendedBelow = 0;      // grid points added below the grid's lower edge
    bool cancelled = false;
    /// The first fold's converged weights by length scale: where the multi-scale rules'
    /// members, refitted on those rows, start (nearestStart).
    std::vector<std::pair<double, Vector>> firstFoldWeights;

    double selectedLengthScale() const
    {
        return curve[static_cast<size_t>(selection.index)].lengthScale;
    }
    /// The curve as the selection rules see it (values: the FD, or for HeldOutLikelihood the
    /// negative held-out log-likelihood).
    CurveView view(bool likelihood = false) const;
};

/// A finished sweep's choice under another rule (the curve does not depend on the rule, but
/// a refining rule needs the refinement points the sweep was run with). ParameterError when
/// the rule cannot be applied to this sweep.
Selection reselect(const SearchResult& result, const SearchConfig& config);

/// The weights fitted at the length scale nearest `lengthScale` (in log l), or empty.
Vector nearestStart(const std::vector<std::pair<double, Vector>>& fitted, double lengthScale);

/// One fitting/validation pair of a sweep.
struct SweepFold
{
    Matrix train;
    Matrix validation;
    /// Row weights of each part (FitData::weights), or empty for equal weights: the fits take
    /// the training part's, and the curve is the weighted mean over the validation rows.
    Vector trainWeights = Vector();
    Vector validationWeights = Vector();
};

/// The neighbourhood reach of a fold as a sweep computes it: validation rows that repeat a
/// fitting row left out when `withoutRepeats` (as the sweep leaves them out of its curve), k
/// capped at the fitting rows (the k used goes to *kUsed).
double sweepReach(const SweepFold& fold, int k, bool withoutRepeats, int* kUsed);

/// Fisher-divergence tuning of the length scale (design.md section 4): fits `estimator` on
/// each fold's fitting rows for each l of a log grid, evaluates the score-matching objective on
/// the fold's validation rows (pooled over the folds: the mean over every validation row), then
/// applies the rule. Steppable: one grid point (all its folds) per step(). With small samples
/// one 80/20 split leaves a few dozen validation rows, and the curve's minimum moves by grid
/// steps from one seed to the next; folds let every row validate once.
class LengthScaleSearch
{
public:
    /// `kernel` supplies everything but the length scale; `options` are the estimator's.
    LengthScaleSearch(const MatrixRef& train, const MatrixRef& validation,
                      const Estimator& estimator, const OptionValues& options,
                      const KernelSpec& kernel, const SearchConfig& search);
    /// Several folds; the grid is centred on the first fold's fitting rows, and the
    /// neighbourhood reach is that of the first fold (the anomaly rule's members are fitted
    /// on it).
    LengthScaleSearch(std::vector<SweepFold> folds, const Estimator& estimator,
                      const OptionValues& options, const KernelSpec& kernel,
                      const SearchConfig& search);

    /// Called after each grid point with its FD value and the model fitted there (on the first
    /// fold's fitting rows), e.g. to stream the curve to a GUI or to score the model without
    /// refitting.
    using Observer = std::function<void(const FdPoint&, const FittedModel&)>;
    void setObserver(Observer observer) { m_observer = std::move(observer); }

    /// Evaluates the next grid point (then the points a refining rule asks for, see
    /// nextPendingPoint); false when all are done or the run was cancelled.
    /// `solverProgress` is passed to the fit at that point, so cancelling (returning false)
    /// answers within one solver iteration, not one grid point.
    bool step(const ProgressFn& solverProgress = {});
    /// Runs to the end; progress(done, total) over grid points may cancel, and is also polled
    /// (with the grid position) between solver iterations.
    const SearchResult& run(const ProgressFn& progress = {});
    const SearchResult& result() const { return m_result; }
    const std::vector<double>& grid() const { return m_grid; }
    int done() const { return static_cast<int>(m_result.curve.size()); }
    /// Points the run expects to evaluate: the grid, plus up to two refinement midpoints, plus
    /// grid extensions once asked for.
    int expected() const;

private:
    void finish();
    /// The next length scale to evaluate (0: done) and whether it refines.
    PendingPoint next() const;

    std::vector<SweepFold> m_folds;
    /// One per fold, shared by its fits; dropped when the sweep finishes.
    std::vector<std::shared_ptr<SweepWorkspace>> m_workspaces;
    /// Per fold: the converged weights of each length scale fitted (the next fit's start).
    std::vector<std::vector<std::pair<double, Vector>>> m_starts;
    const Estimator& m_estimator;
    OptionValues m_options;
    KernelSpec m_kernel;
    SearchConfig m_search;
    std::vector<double> m_grid;
    size_t m_baseDone = 0; // grid points evaluated
    bool m_finished = false;
    SearchResult m_result;
    Observer m_observer;
};

} // namespace sosrep
