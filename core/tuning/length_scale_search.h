// SPDX-License-Identifier: MIT
#pragma once

#include "core/estimators/estimator.h"
#include "core/tuning/fisher_divergence.h"

#include <functional>
#include <vector>

namespace sosrep {

struct SearchConfig
{
    int gridSize = 15;
    double decades = 2.0; // the grid spans centre * 10^(+-decades)
    double centre = 0.0;  // 0 = median pairwise distance of the training data
    FdEstimator estimator = FdEstimator::Analytic;
    HutchinsonConfig hutchinson;
    SelectionRule rule = SelectionRule::DoubledStableMinimum;
    int neighbours = 3;
    double factor = 2.0; // the ranking rule's multiple of the FD choice
    /// Leave validation rows that exactly repeat a fitting row out of the FD average. Score
    /// matching assumes a continuous density; a repeated value is an atom, at which the
    /// Hyvaerinen term of a kernel model tends to -inf as l -> 0 (2 lap f / f ~ -2d/l^2 at a
    /// kernel centre), so a few duplicates decide the whole curve (skin, mammography).
    bool excludeDuplicates = false;
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
};

struct SearchResult
{
    std::vector<FdPoint> curve; // sorted by increasing length scale
    Selection selection;
    double centre = 0.0;
    double spacing = 0.0; // median nearest-neighbour distance (the above-spacing rule's floor)
    int excludedDuplicates = 0; // validation rows left out (SearchConfig::excludeDuplicates)
    bool cancelled = false;

    double selectedLengthScale() const
    {
        return curve[static_cast<size_t>(selection.index)].lengthScale;
    }
};

/// Fisher-divergence tuning of the length scale (design.md section 4): fits `estimator` on
/// `train` for each l of a log grid, evaluates the score-matching objective on `validation`,
/// then applies the rule. Steppable: one grid point per step().
class LengthScaleSearch
{
public:
    /// `kernel` supplies everything but the length scale; `options` are the estimator's.
    LengthScaleSearch(const MatrixRef& train, const MatrixRef& validation,
                      const Estimator& estimator, const OptionValues& options,
                      const KernelSpec& kernel, const SearchConfig& search);

    /// Called after each grid point with its FD value and the model fitted there (on `train`),
    /// e.g. to stream the curve to a GUI or to score the model without refitting.
    using Observer = std::function<void(const FdPoint&, const FittedModel&)>;
    void setObserver(Observer observer) { m_observer = std::move(observer); }

    /// Evaluates the next grid point; false when all are done or the run was cancelled.
    /// `solverProgress` is passed to the fit at that point, so cancelling (returning false)
    /// answers within one solver iteration, not one grid point.
    bool step(const ProgressFn& solverProgress = {});
    /// Runs to the end; progress(done, total) over grid points may cancel, and is also polled
    /// (with the grid position) between solver iterations.
    const SearchResult& run(const ProgressFn& progress = {});
    const SearchResult& result() const { return m_result; }
    const std::vector<double>& grid() const { return m_grid; }
    int done() const { return static_cast<int>(m_result.curve.size()); }

private:
    void finish();

    Matrix m_train;
    Matrix m_validation;
    const Estimator& m_estimator;
    OptionValues m_options;
    KernelSpec m_kernel;
    SearchConfig m_search;
    std::vector<double> m_grid;
    SearchResult m_result;
    Observer m_observer;
};

} // namespace sosrep
