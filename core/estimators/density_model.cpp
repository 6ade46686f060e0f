// SPDX-License-Identifier: MIT
#include "core/estimators/density_model.h"

#include "core/errors.h"
#include "core/random.h"

#include <cmath>

namespace sosrep {

std::string toString(EstimatorKind kind)
{
    return kind == EstimatorKind::Sosrep ? "sosrep" : "kde";
}

EstimatorKind estimatorKindFromString(const std::string& text)
{
    if (text == "sosrep") {
        return EstimatorKind::Sosrep;
    }
    if (text == "kde") {
        return EstimatorKind::Kde;
    }
    throw ParameterError("--estimator", "unknown estimator '" + text + "' (use sosrep or kde)");
}

DensityModel makeKde(std::shared_ptr<const KernelOperator> kernel)
{
    DensityModel m;
    m.estimator = EstimatorKind::Kde;
    const double n = static_cast<double>(kernel->size());
    m.weights = Vector::Constant(kernel->size(), 1.0 / n);
    m.kernel = std::move(kernel);
    return m;
}

double DensityModel::logOffset() const
{
    return estimator == EstimatorKind::Sosrep
               ? kernel->logDiagonal()
               : kernel->logDiagonal() - logKdeNormalizer(kernel->spec(), kernel->dim());
}

double DensityModel::logFromField(double value, double logShift, double offset, int* floored) const
{
    constexpr double kFloor = 1e-300;
    double v = estimator == EstimatorKind::Sosrep ? std::abs(value) : value;
    if (!(v > kFloor)) {
        v = kFloor;
        ++*floored;
    }
    return power() * (std::log(v) + logShift) + offset;
}

LogDensity DensityModel::logDensity(const MatrixRef& y) const
{
    const FieldValues f = kernel->evaluate(y, weights, false);
    const double offset = logOffset();
    LogDensity out;
    out.values.resize(y.rows());
    for (Eigen::Index i = 0; i < y.rows(); ++i) {
        out.values(i) = logFromField(f.value(i), f.logShift(i), offset, &out.floored);
    }
    return out;
}

Matrix DensityModel::score(const MatrixRef& y) const
{
    const FieldValues f = kernel->evaluate(y, weights, true);
    // grad log p = power * grad f / f (the shift cancels).
    return (f.gradient.array().colwise() / f.value.array()) * power();
}

Vector DensityModel::fisherTerms(const MatrixRef& y, int* invalid) const
{
    const FieldValues f = kernel->evaluate(y, weights, true);
    const double pw = power();
    Vector terms(y.rows());
    int bad = 0;
    for (Eigen::Index i = 0; i < y.rows(); ++i) {
        // log p = pw log f: tr H = pw (lap f / f - |grad f / f|^2), |s|^2 = pw^2 |grad f / f|^2.
        const double lapRatio = f.laplacian(i) / f.value(i);
        const double g2 = (f.gradient.row(i) / f.value(i)).squaredNorm();
        double t = pw * (lapRatio - g2) + 0.5 * pw * pw * g2;
        if (!std::isfinite(t)) {
            t = std::numeric_limits<double>::infinity();
            ++bad;
        }
        terms(i) = t;
    }
    if (invalid) {
        *invalid = bad;
    }
    return terms;
}

Vector DensityModel::fisherTermsFiniteDifference(const MatrixRef& y, const HutchinsonConfig& config,
                                                 int* invalid) const
{
    if (config.probes < 1) {
        throw ParameterError("--fd-probes", "must be at least 1");
    }
    if (!(config.step > 0.0)) {
        throw ParameterError("--fd-step", "must be positive");
    }
    const double h = config.step * kernel->spec().lengthScale;
    const Matrix s0 = score(y);
    Vector trace = Vector::Zero(y.rows());
    Rng rng(config.seed);
    for (int k = 0; k < config.probes; ++k) {
        Matrix eps(y.rows(), y.cols());
        for (Eigen::Index i = 0; i < eps.size(); ++i) {
            eps.data()[i] = rng.uniform() < 0.5 ? -1.0 : 1.0;
        }
        const Matrix s1 = score(y + h * eps);
        // Alg. 1: eps^T (s(y + h eps) - s(y)) / h estimates tr grad s.
        trace += ((s1 - s0).cwiseProduct(eps)).rowwise().sum() / h;
    }
    trace /= config.probes;
    Vector terms = trace + 0.5 * s0.rowwise().squaredNorm();
    int bad = 0;
    for (Eigen::Index i = 0; i < terms.size(); ++i) {
        if (!std::isfinite(terms(i))) {
            terms(i) = std::numeric_limits<double>::infinity();
            ++bad;
        }
    }
    if (invalid) {
        *invalid = bad;
    }
    return terms;
}

} // namespace sosrep
