// SPDX-License-Identifier: MIT
// The length-scale sweep scored by Fisher divergence over folds.
#include "core/tuning/length_scale_search.h"

#include "core/data/split.h"
#include "core/errors.h"
#include "core/estimators/kernel_field_model.h"
#include "core/kernels/sweep_workspace.h"
#include "core/tuning/length_scale_rules.h"
#include "core/tuning/neighbour_reach.h"

#include <algorithm>

#include <cmath>
#include <limits>
#include <set>
#include <vector>

namespace sosrep {

namespace {

/// Rows of `validation` that do not exactly repeat a row of `train` (their indices in *kept).
Matrix withoutDuplicatesOf(const MatrixRef& validation, const MatrixRef& train, int* excluded,
                           std::vector<Eigen::Index>* kept = nullptr)
{
    auto rowOf = [](const MatrixRef& m, Eigen::Index i) {
        std::vector<double> row(static_cast<size_t>(m.cols()));
        for (Eigen::Index j = 0; j < m.cols(); ++j) {
            row[static_cast<size_t>(j)] = m(i, j);
        }
        return row;
    };
    std::set<std::vector<double>> seen;
    for (Eigen::Index i = 0; i < train.rows(); ++i) {
        seen.insert(rowOf(train, i));
    }
    std::vector<Eigen::Index> keep;
    for (Eigen::Index i = 0; i < validation.rows(); ++i) {
        if (seen.count(rowOf(validation, i)) == 0) {
            keep.push_back(i);
        }
    }
    *excluded = static_cast<int>(validation.rows() - static_cast<Eigen::Index>(keep.size()));
    Matrix out(static_cast<Eigen::Index>(keep.size()), validation.cols());
    for (size_t k = 0; k < keep.size(); ++k) {
        out.row(static_cast<Eigen::Index>(k)) = validation.row(keep[k]);
    }
    if (kept) {
        *kept = std::move(keep);
    }
    return out;
}

} // namespace

double sweepReach(const SweepFold& fold, int k, bool withoutRepeats, int* kUsed)
{
    *kUsed = std::min<int>(k, static_cast<int>(fold.train.rows()));
    if (*kUsed < 2) {
        return 0.0;
    }
    if (withoutRepeats) {
        int excluded = 0;
        const Matrix kept = withoutDuplicatesOf(fold.validation, fold.train, &excluded);
        if (kept.rows() > 0) {
            return neighbourReach(fold.train, kept, *kUsed);
        }
    }
    return neighbourReach(fold.train, fold.validation, *kUsed);
}

LengthScaleSearch::LengthScaleSearch(const MatrixRef& train, const MatrixRef& validation,
                                     const Estimator& estimator, const OptionValues& options,
                                     const KernelSpec& kernel, const SearchConfig& search)
    : LengthScaleSearch(std::vector<SweepFold>{SweepFold{train, validation}}, estimator, options,
                        kernel, search)
{
}

LengthScaleSearch::LengthScaleSearch(std::vector<SweepFold> folds, const Estimator& estimator,
                                     const OptionValues& options, const KernelSpec& kernel,
                                     const SearchConfig& search)
    : m_folds(std::move(folds)), m_estimator(estimator), m_options(options), m_kernel(kernel),
      m_search(search)
{
    const Capabilities caps = estimator.capabilities();
    if (!caps.fisherTuning) {
        throw ParameterError("length_scale", "auto needs an estimator with a score and a "
                                             "Laplacian; " +
                                                 estimator.name() + " has none");
    }
    const DensityKind kind = estimator.kindFor(options);
    if (search.rule == SelectionRule::HeldOutLikelihood && kind != DensityKind::Normalized) {
        throw ParameterError("selection", "likelihood needs a normalized density (e.g. kde, or "
                                          "sosrep with the gaussian kernel); " +
                                              estimator.name() + " here gives a " + toString(kind));
    }
    if (m_folds.empty()) {
        throw ParameterError("validation", "needs at least one fold");
    }
    for (SweepFold& f : m_folds) {
        if (search.excludeDuplicates) {
            int excluded = 0;
            std::vector<Eigen::Index> rows;
            Matrix kept = withoutDuplicatesOf(f.validation, f.train, &excluded, &rows);
            // Every row repeats a training row: nothing to exclude by.
            if (kept.rows() > 0) {
                f.validation = std::move(kept);
                if (f.validationWeights.size() > 0) {
                    f.validationWeights = entriesOf(f.validationWeights, rows);
                }
                m_result.excludedDuplicates += excluded;
            }
        }
        if (f.validation.rows() < 1) {
            throw ParameterError("validation", "needs at least one validation row");
        }
    }
    m_result.folds = static_cast<int>(m_folds.size());
    const auto precision = search.singlePrecision ? SweepWorkspace::Precision::Single
                                                  : SweepWorkspace::Precision::Double;
    double distanceBytes = 0.0;
    for (const SweepFold& f : m_folds) {
        distanceBytes += SweepWorkspace::distanceBytes(double(f.train.rows()),
                                                       double(f.validation.rows()), precision);
    }
    for (const SweepFold& f : m_folds) {
        m_workspaces.push_back(std::make_shared<SweepWorkspace>(
            f.train, f.validation, precision, distanceBytes <= SweepWorkspace::kMaxDistanceBytes));
    }
    m_starts.resize(m_folds.size());
    const Matrix& train = m_folds.front().train;
    m_result.centre = search.centre > 0.0 ? search.centre : medianPairwiseDistance(train);
    m_result.spacing = medianNearestNeighbourDistance(train);
    if (refinesSweep(search.rule) && train.rows() >= 2) {
        // Cheap beside the sweep (one exact kNN pass over at most 2000 validation rows), and
        // kept with the sweep so either purpose's rule can be applied to it later. The folds
        // hold their validation rows without repeats by now.
        m_result.reach =
            sweepReach(m_folds.front(), search.reachNeighbours, false, &m_result.reachNeighbours);
    }
    m_grid = logSpacedGrid(m_result.centre, search.gridSize, search.decades);
}

PendingPoint LengthScaleSearch::next() const
{
    if (m_baseDone < m_grid.size()) {
        return {m_grid[m_baseDone], false};
    }
    if (!refinesSweep(m_search.rule)) {
        return {};
    }
    const double ratio = m_grid.size() > 1 ? m_grid[1] / m_grid[0] : 0.0;
    return nextPendingPoint(m_result.view(), m_search.ruleParameters(), ratio,
                            m_search.neighbours + 1 - m_result.extendedBelow);
}

int LengthScaleSearch::expected() const
{
    return static_cast<int>(m_grid.size()) + m_result.extendedBelow +
           (refinesSweep(m_search.rule) ? 2 : 0);
}

namespace {

/// The sums a point of the curve pools over the folds' validation rows.
struct FoldSums
{
    double terms = 0.0;
    double logLikelihood = 0.0;
    double weight = 0.0; // the validation rows' (their count without row weights)
    bool diverged = false;
};

/// One fold's fit at the point's l and its Fisher-divergence terms (and log-likelihood for the
/// likelihood rule) at the fold's validation rows, added to `sums`; the first fold's status and
/// solver trace describe the point. A converged kernel-field fit is kept as a warm start.
/// Null when cancelled.
std::unique_ptr<FittedModel> fitFold(const Estimator& estimator, const OptionValues& options,
                                     const SearchConfig& search, const SweepFold& fold,
                                     const KernelSpec& kernel, const FitControl& control,
                                     std::vector<std::pair<double, Vector>>& starts, bool first,
                                     FdPoint& p, FoldSums& sums)
{
    FitInput input{fold.train, nullptr, kernel, options};
    input.weights = fold.trainWeights.size() > 0 ? &fold.trainWeights : nullptr;
    std::unique_ptr<FittedModel> model = estimator.fit(input, control);
    const FitReport& fit = model->report();
    if (fit.status == SolverStatus::Cancelled) {
        return nullptr;
    }
    p.kernelProducts += fit.kernelProducts;
    if (const auto* field = dynamic_cast<const KernelFieldModel*>(model.get())) {
        if (fit.status == SolverStatus::Converged) {
            starts.emplace_back(kernel.lengthScale, field->weights());
        }
    }
    if (first) {
        p.status = fit.status;
        p.backend = model->kernel() ? model->kernel()->backendName() : std::string();
        if (!fit.traces.empty() && !fit.traces.front().rows.empty()) {
            p.iterations = fit.traces.front().rows.back().iteration;
            p.residual = fit.traces.front().rows.back().residual;
        }
    }
    if (fit.status == SolverStatus::Diverged) {
        p.status = fit.status;
        sums.diverged = true;
        return model;
    }
    int invalid = 0;
    const Vector terms =
        search.estimator == FdEstimator::Analytic
            ? model->fisherTerms(fold.validation, &invalid)
            : model->fisherTermsFiniteDifference(fold.validation, search.hutchinson, &invalid);
    p.invalidPoints += invalid;
    // A weighted mean over the validation rows when the rows carry weights (a row of weight w
    // counts as w copies of it).
    const Vector& w = fold.validationWeights;
    const auto total = [&w](const Vector& v) { return w.size() > 0 ? w.dot(v) : v.sum(); };
    if (invalid == 0) {
        sums.terms += total(terms);
    }
    if (search.rule == SelectionRule::HeldOutLikelihood) {
        sums.logLikelihood += total(model->logValues(fold.validation).values);
    }
    sums.weight += w.size() > 0 ? w.sum() : double(fold.validation.rows());
    return model;
}

} // namespace

bool LengthScaleSearch::step(const ProgressFn& solverProgress)
{
    if (m_finished) {
        return false;
    }
    const PendingPoint pending = next();
    if (pending.lengthScale <= 0.0) {
        finish();
        return false;
    }
    KernelSpec kernel = m_kernel;
    kernel.lengthScale = pending.lengthScale;
    FitControl control;
    control.progress = solverProgress;
    control.sweep = true;
    FdPoint p;
    p.lengthScale = pending.lengthScale;
    p.refinement = pending.refinement;
    // The curve at l pools every fold's validation rows: the mean of all their terms.
    FoldSums sums;
    std::unique_ptr<FittedModel> first;
    for (size_t f = 0; f < m_folds.size(); ++f) {
        control.workspace = m_workspaces[f];
        control.start = nearestStart(m_starts[f], pending.lengthScale);
        std::unique_ptr<FittedModel> model = fitFold(m_estimator, m_options, m_search, m_folds[f],
                                                     kernel, control, m_starts[f], !first, p, sums);
        if (!model) {
            m_result.cancelled = true;
            return false;
        }
        if (!first) {
            first = std::move(model);
        }
    }
    const double inf = std::numeric_limits<double>::infinity();
    p.value = sums.diverged || p.invalidPoints > 0 ? inf : sums.terms / sums.weight;
    if (m_search.rule == SelectionRule::HeldOutLikelihood) {
        p.heldOutLogLikelihood = sums.diverged ? -inf : sums.logLikelihood / sums.weight;
    }
    if (m_baseDone < m_grid.size()) {
        ++m_baseDone;
    } else if (!p.refinement) {
        ++m_result.extendedBelow;
    }
    m_result.curve.insert(std::upper_bound(m_result.curve.begin(), m_result.curve.end(), p,
                                           [](const FdPoint& a, const FdPoint& b) {
                                               return a.lengthScale < b.lengthScale;
                                           }),
                          p);
    if (m_observer) {
        m_observer(p, *first); // the first fold's model
    }
    if (next().lengthScale <= 0.0) {
        finish();
        return false;
    }
    return true;
}

Vector nearestStart(const std::vector<std::pair<double, Vector>>& fitted, double lengthScale)
{
    const std::pair<double, Vector>* best = nullptr;
    for (const auto& s : fitted) {
        if (!best || std::abs(std::log(s.first / lengthScale)) <
                         std::abs(std::log(best->first / lengthScale))) {
            best = &s;
        }
    }
    return best ? best->second : Vector();
}

CurveView SearchResult::view(bool likelihood) const
{
    CurveView v;
    for (const FdPoint& p : curve) {
        v.lengthScales.push_back(p.lengthScale);
        v.values.push_back(likelihood ? -p.heldOutLogLikelihood : p.value);
        v.refinement.push_back(p.refinement);
    }
    v.spacing = spacing;
    v.reach = reach;
    v.centre = centre;
    return v;
}

Selection reselect(const SearchResult& r, const SearchConfig& config)
{
    if (config.rule == SelectionRule::HeldOutLikelihood) {
        throw ParameterError("selection", "a reused sweep cannot switch to likelihood");
    }
    if (config.rule == SelectionRule::Anomaly && r.reach <= 0.0) {
        throw ParameterError("selection", "the anomaly rule needs a sweep run with its "
                                          "neighbourhood reach");
    }
    Selection s = selectLengthScale(r.view(), config.rule, config.ruleParameters());
    if (s.index < 0) {
        s = r.selection;
    }
    return s;
}

void LengthScaleSearch::finish()
{
    m_finished = true;
    m_workspaces.clear(); // the stored distances are not needed by the fits that follow
    m_result.firstFoldWeights = std::move(m_starts.front());
    m_result.selection =
        selectLengthScale(m_result.view(m_search.rule == SelectionRule::HeldOutLikelihood),
                          m_search.rule, m_search.ruleParameters());
    if (m_result.selection.index < 0) {
        // Every grid point failed: fall back to the centre and say so.
        m_result.selection.index = static_cast<int>(m_result.curve.size() / 2);
        m_result.selection.fdIndex = m_result.selection.index;
        m_result.selection.reason = "no_finite_value_grid_centre";
        m_result.selection.members.clear();
        m_result.selection.memberScales.clear();
    }
}

const SearchResult& LengthScaleSearch::run(const ProgressFn& progress)
{
    // Between solver iterations, report the grid position (done, expected) so a cancel
    // answers at once; the callback sees the same arguments it sees between grid points.
    ProgressFn inner;
    if (progress) {
        inner = [&](int, int) { return progress(done(), expected()); };
    }
    while (step(inner)) {
        if (progress && !progress(done(), expected())) {
            m_result.cancelled = true;
            break;
        }
    }
    return m_result;
}

} // namespace sosrep
