// SPDX-License-Identifier: MIT
#include "core/tuning/length_scale_search.h"

#include "core/errors.h"
#include "core/estimators/kde.h"
#include "core/estimators/sosrep_newton.h"

#include <algorithm>

#include <cmath>
#include <limits>
#include <set>
#include <vector>

namespace sosrep {

FitResult fitDensity(const MatrixRef& train, const FitConfig& config, const ProgressFn& progress)
{
    if (train.rows() < 2) {
        throw ParameterError("--train", "needs at least 2 rows to fit a density");
    }
    auto kernel = std::make_shared<const KernelOperator>(train, config.kernel);
    FitResult out;
    if (config.estimator == EstimatorKind::Kde) {
        out.model = makeKde(kernel);
        return out;
    }
    if (kernel->uncoveredRows() > 0) {
        // The low-rank kernel is ~0 at these rows: no f is positive there, so the fit would
        // only burn its budget. Reported as diverged (FD = +inf, skipped by the selection).
        out.status = SolverStatus::Diverged;
        out.solverNote = "not fitted: " + std::to_string(kernel->uncoveredRows()) +
                         " rows are beyond every landmark (l is finer than " +
                         std::to_string(kernel->rank()) + " landmarks resolve; raise --rank)";
        out.model = DensityModel{EstimatorKind::Sosrep, kernel, Vector::Zero(kernel->size())};
        TraceRow row;
        row.loss = std::numeric_limits<double>::infinity();
        row.residual = std::numeric_limits<double>::infinity();
        out.trace.push_back(row);
        return out;
    }
    if (config.solver.solver == SolverKind::Newton) {
        NewtonConfig nc;
        nc.tolerance = config.solver.tolerance > 0 ? config.solver.tolerance : 1e-8;
        nc.maxIterations = std::min(config.solver.iterations, 200);
        nc.seed = config.solver.seed;
        nc.maxProducts = config.solver.iterations + 2; // natural gradient's budget
        NewtonSolver solver(*kernel, nc);
        out.status = solver.run(progress);
        out.trace = solver.trace();
        out.clamped = solver.totalClamped();
        out.kernelProducts = solver.kernelProducts();
        out.fallbackSteps = solver.fallbackSteps();
        out.solverNote = solver.summary();
        out.model = DensityModel{EstimatorKind::Sosrep, kernel, solver.alpha()};
        return out;
    }
    SosrepSolver solver(*kernel, config.solver);
    out.status = solver.run(progress);
    out.trace = solver.trace();
    out.clamped = solver.totalClamped();
    out.kernelProducts = solver.kernelProducts();
    out.model = DensityModel{EstimatorKind::Sosrep, kernel, solver.alpha()};
    return out;
}

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
                                     const FitConfig& fit, const SearchConfig& search)
    : m_train(train), m_validation(validation), m_fit(fit), m_search(search)
{
    if (search.rule == SelectionRule::HeldOutLikelihood && fit.estimator != EstimatorKind::Kde) {
        throw ParameterError("--selection", "likelihood needs a normalized density (the kde "
                                            "estimator); SOSREP's pre-density is unnormalized");
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
    FitConfig cfg = m_fit;
    cfg.kernel.lengthScale = m_grid[i];
    const FitResult fit = fitDensity(m_train, cfg, solverProgress);
    if (fit.status == SolverStatus::Cancelled) {
        m_result.cancelled = true;
        return false;
    }
    FdPoint p;
    p.lengthScale = m_grid[i];
    p.status = fit.status;
    p.iterations = fit.trace.empty() ? 0 : fit.trace.back().iteration;
    p.residual = fit.trace.empty() ? 0.0 : fit.trace.back().residual;
    const Vector terms = m_search.estimator == FdEstimator::Analytic
                             ? fit.model.fisherTerms(m_validation, &p.invalidPoints)
                             : fit.model.fisherTermsFiniteDifference(
                                   m_validation, m_search.hutchinson, &p.invalidPoints);
    p.value = fit.status == SolverStatus::Diverged || p.invalidPoints > 0
                  ? std::numeric_limits<double>::infinity()
                  : terms.mean();
    p.kernelProducts = fit.kernelProducts;
    if (fit.model.estimator == EstimatorKind::Kde) {
        p.heldOutLogLikelihood = fit.model.logDensity(m_validation).values.mean();
    }
    m_result.curve.push_back(p);
    if (m_observer) {
        m_observer(p, fit.model);
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
    m_result.selection =
        selectLengthScale(ls, vals, m_search.rule, m_result.spacing, m_search.neighbours);
    if (m_result.selection.index < 0) {
        // Every grid point failed: fall back to the centre and say so.
        m_result.selection.index = static_cast<int>(ls.size() / 2);
        m_result.selection.reason = "no_finite_value_grid_centre";
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
