// SPDX-License-Identifier: MIT
#include "core/tuning/length_scale_search.h"

#include "core/errors.h"
#include "core/tuning/length_scale_rules.h"

#include <algorithm>

#include <cmath>
#include <limits>
#include <set>
#include <vector>

namespace sosrep {

namespace {

/// Rows of `validation` that do not exactly repeat a row of `train`.
Matrix withoutDuplicatesOf(const MatrixRef& validation, const MatrixRef& train, int* excluded)
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
    return out;
}

} // namespace

LengthScaleSearch::LengthScaleSearch(const MatrixRef& train, const MatrixRef& validation,
                                     const Estimator& estimator, const OptionValues& options,
                                     const KernelSpec& kernel, const SearchConfig& search)
    : m_train(train), m_validation(validation), m_estimator(estimator), m_options(options),
      m_kernel(kernel), m_search(search)
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
    if (search.excludeDuplicates) {
        m_validation = withoutDuplicatesOf(validation, train, &m_result.excludedDuplicates);
        if (m_validation.rows() == 0) {
            m_validation = validation; // every row repeats a training row: nothing to exclude by
            m_result.excludedDuplicates = 0;
        }
    }
    if (m_validation.rows() < 1) {
        throw ParameterError("validation", "needs at least one validation row");
    }
    m_result.centre = search.centre > 0.0 ? search.centre : medianPairwiseDistance(m_train);
    m_result.spacing = medianNearestNeighbourDistance(m_train);
    m_grid = logSpacedGrid(m_result.centre, search.gridSize, search.decades);
}

bool LengthScaleSearch::step(const ProgressFn& solverProgress)
{
    const size_t i = m_result.curve.size();
    if (i >= m_grid.size()) {
        return false;
    }
    KernelSpec kernel = m_kernel;
    kernel.lengthScale = m_grid[i];
    FitControl control;
    control.progress = solverProgress;
    control.sweep = true;
    const std::unique_ptr<FittedModel> model =
        m_estimator.fit(FitInput{m_train, nullptr, kernel, m_options}, control);
    const FitReport& fit = model->report();
    if (fit.status == SolverStatus::Cancelled) {
        m_result.cancelled = true;
        return false;
    }
    FdPoint p;
    p.lengthScale = m_grid[i];
    p.status = fit.status;
    if (!fit.traces.empty() && !fit.traces.front().rows.empty()) {
        p.iterations = fit.traces.front().rows.back().iteration;
        p.residual = fit.traces.front().rows.back().residual;
    }
    if (fit.status != SolverStatus::Diverged) {
        const Vector terms = m_search.estimator == FdEstimator::Analytic
                                 ? model->fisherTerms(m_validation, &p.invalidPoints)
                                 : model->fisherTermsFiniteDifference(
                                       m_validation, m_search.hutchinson, &p.invalidPoints);
        p.value = p.invalidPoints > 0 ? std::numeric_limits<double>::infinity() : terms.mean();
    } else {
        p.value = std::numeric_limits<double>::infinity();
    }
    p.kernelProducts = fit.kernelProducts;
    if (m_search.rule == SelectionRule::HeldOutLikelihood && fit.status != SolverStatus::Diverged) {
        p.heldOutLogLikelihood = model->logValues(m_validation).values.mean();
    } else if (m_search.rule == SelectionRule::HeldOutLikelihood) {
        p.heldOutLogLikelihood = -std::numeric_limits<double>::infinity();
    }
    m_result.curve.push_back(p);
    if (m_observer) {
        m_observer(p, *model);
    }
    if (m_result.curve.size() == m_grid.size()) {
        finish();
        return false;
    }
    return true;
}

void LengthScaleSearch::finish()
{
    std::vector<double> ls;
    std::vector<double> vals;
    for (const auto& p : m_result.curve) {
        ls.push_back(p.lengthScale);
        vals.push_back(m_search.rule == SelectionRule::HeldOutLikelihood ? -p.heldOutLogLikelihood
                                                                         : p.value);
    }
    m_result.selection = selectLengthScale(ls, vals, m_search.rule, m_result.spacing,
                                           m_search.neighbours, m_search.factor);
    if (m_result.selection.index < 0) {
        // Every grid point failed: fall back to the centre and say so.
        m_result.selection.index = static_cast<int>(ls.size() / 2);
        m_result.selection.fdIndex = m_result.selection.index;
        m_result.selection.reason = "no_finite_value_grid_centre";
        if (m_search.rule == SelectionRule::RankEnsemble) {
            m_result.selection.members = {m_result.selection.index};
        }
    }
}

const SearchResult& LengthScaleSearch::run(const ProgressFn& progress)
{
    const int total = static_cast<int>(m_grid.size());
    // Between solver iterations, report the grid position (done, total) so a cancel answers
    // at once; the callback sees the same arguments it sees between grid points.
    ProgressFn inner;
    if (progress) {
        inner = [&](int, int) { return progress(done(), total); };
    }
    while (step(inner)) {
        if (progress && !progress(done(), total)) {
            m_result.cancelled = true;
            break;
        }
    }
    return m_result;
}

} // namespace sosrep
