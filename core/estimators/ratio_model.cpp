// SPDX-License-Identifier: MIT
// The ratio-model interface, and a kernel expansion ratio along a lambda path.
#include "core/estimators/ratio_model.h"

#include "core/errors.h"
#include "core/ratio/ratio_gaussian.h"

#include <cmath>

namespace sosrep {

LogDensity RatioModel::modelLogValues(const MatrixRef& y) const
{
    LogDensity out;
    const Vector r = ratio(y);
    out.values.resize(r.size());
    for (Eigen::Index i = 0; i < r.size(); ++i) {
        const double v = r(i);
        if (!(v >= 1e-300)) {
            ++out.floored;
        }
        out.values(i) = std::log(std::isnan(v) ? 1e-300 : std::max(v, 1e-300));
    }
    return out;
}

KernelExpansionRatio::KernelExpansionRatio(std::string estimator, Matrix centres,
                                           Vector coefficients, double t, double lambda)
    : m_estimator(std::move(estimator)), m_centres(std::move(centres)),
      m_coefficients(std::move(coefficients)), m_t(t), m_lambda(lambda)
{
}

Vector KernelExpansionRatio::ratio(const MatrixRef& y) const
{
    return gaussianExpansion(y, m_centres, m_coefficients, m_t);
}

void KernelExpansionRatio::save(ParameterMap& out) const
{
    out.set("centres", m_centres);
    out.set("coefficients", m_coefficients);
    out.set("t", m_t);
    out.set("lambda", m_lambda);
}

std::unique_ptr<KernelExpansionRatio> KernelExpansionRatio::load(const std::string& estimator,
                                                                 const ParameterMap& p)
{
    const Matrix& c = p.matrix("centres");
    const Vector& a = p.vector("coefficients");
    const double t = p.number("t");
    const double lambda = p.number("lambda");
    if (c.rows() != a.size() || c.rows() == 0) {
        throw ParameterError("coefficients", "has " + std::to_string(a.size()) + " entries for " +
                                                 std::to_string(c.rows()) + " centres");
    }
    if (!(t > 0.0) || !std::isfinite(t)) {
        throw ParameterError("t", "must be a positive number");
    }
    if (!a.allFinite() || !c.allFinite()) {
        throw ParameterError("coefficients", "holds non-finite numbers");
    }
    return std::make_unique<KernelExpansionRatio>(estimator, c, a, t, lambda);
}

double heldOutJ(const RatioModel& model, const Matrix& pRows, const Matrix& qRows,
                TestFamily family, int count, uint64_t seed)
{
    Matrix pooled(pRows.rows() + qRows.rows(), pRows.cols());
    pooled << pRows, qRows;
    const TestFunctions u = TestFunctions::draw(pooled, family, count, seed);
    const Vector uq = u.evaluate(qRows).colwise().mean().transpose();
    return jCriterion(u.evaluate(pRows), model.ratio(pRows), uq);
}

Capabilities ratioCapabilities()
{
    Capabilities c;
    c.kind = DensityKind::Ratio;
    c.needsSecondSample = true;
    c.usesKernel = false;
    c.kernelBackends = false;
    return c;
}

std::unique_ptr<FittedModel> cancelledRatioFit(const std::string& estimator)
{
    auto m = std::make_unique<KernelExpansionRatio>(estimator, Matrix(0, 1), Vector(0), 1.0, 0.0);
    FitReport r;
    r.status = SolverStatus::Cancelled;
    m->setReport(r);
    return m;
}

void checkRatioInput(const FitInput& in, bool typeTwoAllowed, const std::string& estimator)
{
    if (in.x.rows() < 2) {
        throw ParameterError("p", "needs at least 2 rows, has " + std::to_string(in.x.rows()));
    }
    if (in.secondValues) {
        if (!typeTwoAllowed) {
            throw ParameterError("q", estimator + " needs a sample of q (Type I); a q known as a "
                                                  "function is for fire (Type II)");
        }
        const Vector& q = *in.secondValues;
        if (q.size() != in.x.rows()) {
            throw ParameterError("q", "has " + std::to_string(q.size()) + " values for " +
                                          std::to_string(in.x.rows()) + " rows of p");
        }
        for (Eigen::Index i = 0; i < q.size(); ++i) {
            if (!std::isfinite(q(i)) || q(i) < 0.0) {
                throw ParameterError("q", "is " + std::to_string(q(i)) + " at row " +
                                              std::to_string(i + 1) +
                                              " of p: q must be finite and non-negative");
            }
        }
        return;
    }
    if (!in.second || in.second->rows() == 0) {
        throw ParameterError("q", "the sample of q is empty");
    }
    if (in.second->cols() != in.x.cols()) {
        throw ParameterError("q", "has " + std::to_string(in.second->cols()) + " columns, p has " +
                                      std::to_string(in.x.cols()));
    }
}

} // namespace sosrep
