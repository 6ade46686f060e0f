// SPDX-License-Identifier: MIT
// 1-D density curves and marginals of a 2-D density, in data units.
#include "core/grid/density_curve.h"

#include "core/errors.h"
#include "core/estimators/kernel_field_model.h"
#include "core/grid/density_grid.h"
#include "core/numerics/flushed_exp.h"
#include "core/numerics/gaussian_mixture.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace sosrep {
namespace {

// Work bound of the mixture route: components x curve points (kernel SoS with m centres has
// m (m + 1) / 2 components; 5e8 exponentials are a few seconds).
constexpr double kMaxMixtureWork = 5e8;

Vector curvePoints(const CurveSpec& spec)
{
    Vector t(spec.n);
    for (int i = 0; i < spec.n; ++i) {
        t(i) = spec.t(i);
    }
    return t;
}

/// log(v / z) + logConstant, floored at log 1e-300 and counted.
Vector logOf(const Vector& v, double z, int* floored, double logConstant = 0.0)
{
    const double floor = std::log(1e-300);
    Vector out(v.size());
    for (Eigen::Index i = 0; i < v.size(); ++i) {
        const double p = v(i) / z;
        double value = p > 0.0 ? std::log(p) + logConstant : floor;
        if (!(value > floor)) {
            value = floor;
            ++*floored;
        }
        out(i) = value;
    }
    return out;
}

/// exp(-(t_s - a_p)^2 / (2 l^2)): m x T.
Matrix oneDimensionalKernel(const Vector& a, const Vector& t, double l)
{
    Matrix k(a.size(), t.size());
    const double s = -0.5 / (l * l);
    for (Eigen::Index s_ = 0; s_ < t.size(); ++s_) {
        k.col(s_) = flushedExp((a.array() - t(s_)).square() * s);
    }
    return k;
}

/// The kernel-field routes: q = 1 (KDE) and q = 2 (SOSREP), Gaussian kernel with centres.
bool fieldMarginal(const KernelFieldModel& field, const CurveSpec& spec, const ProgressFn& progress,
                   DensityCurve* out)
{
    Matrix centres;
    Vector c;
    if (!field.kernelOperator()->fieldAsKernelSum(field.weights(), &centres, &c)) {
        return false;
    }
    const double l = field.kernelOperator()->spec().lengthScale;
    const Vector t = curvePoints(spec);
    const Vector a = centres.col(spec.column);
    const Matrix k = oneDimensionalKernel(a, t, l);
    if (field.power() == 1.0) {
        const Vector curve = k.transpose() * c;
        out->logValues = logOf(curve, std::sqrt(2.0 * M_PI) * l * c.sum(), &out->floored);
        return true;
    }
    // q = 2: p(x) = e^offset (sum_p c_p k_p(x))^2, so the marginal is e^offset (pi l^2)^((d-1)/2)
    // k(t)^T (c c^T o E) k(t). The model is normalized, so no integral is needed here (the
    // constant is applied in logs: (pi l^2)^((d-1)/2) alone under- or overflows in high d).
    // In blocks of centres p: R = E_P (c o k), summed against c_P k_P. E is symmetric: each
    // block takes the columns from its own start on, and pairs beyond the block twice.
    Matrix others = centres;
    others.col(spec.column).setZero();
    const Vector sq = others.rowwise().squaredNorm();
    const Matrix ck = c.asDiagonal() * k; // c_q k_q(t)
    const Eigen::Index m = centres.rows();
    const Eigen::Index block = 256;
    Vector curve = Vector::Zero(t.size());
    for (Eigen::Index p0 = 0; p0 < m; p0 += block) {
        const Eigen::Index b = std::min(block, m - p0);
        const Eigen::Index rest = m - p0; // columns q >= p0
        Matrix e = (others.middleRows(p0, b) * others.bottomRows(rest).transpose()) * -2.0;
        e.colwise() += sq.segment(p0, b);
        e.rowwise() += sq.tail(rest).transpose();
        e = (e.array().max(0.0) * (-0.25 / (l * l))).exp().matrix(); // E_pq, q >= p0
        flushSubnormalEntries(e);
        Matrix r = e.leftCols(b) * ck.middleRows(p0, b);
        if (rest > b) {
            r.noalias() += 2.0 * (e.rightCols(rest - b) * ck.bottomRows(rest - b));
        }
        curve += (ck.middleRows(p0, b).array() * r.array()).matrix().colwise().sum().transpose();
        if (progress && !progress(int(std::min(m, p0 + b)), int(m))) {
            out->cancelled = true;
            return true;
        }
    }
    const double logConstant =
        field.logOffset() + 0.5 * double(centres.cols() - 1) * std::log(M_PI * l * l);
    out->logValues = logOf(curve, 1.0, &out->floored, logConstant);
    return true;
}

} // namespace

CurveSpec curveAroundData(const MatrixRef& data, int column, int points, double margin)
{
    if (column < 0 || column >= data.cols()) {
        throw ParameterError("columns", "plotted column out of range");
    }
    CurveSpec s;
    s.column = column;
    s.n = std::max(2, points);
    const double a = data.col(column).minCoeff();
    const double b = data.col(column).maxCoeff();
    const double span = b > a ? b - a : 1.0;
    s.min = a - margin * span;
    s.max = b + margin * span;
    s.fixedValues = columnMedians(data);
    return s;
}

DensityCurve evaluateCurve(const FittedModel& model, const CurveSpec& spec)
{
    DensityCurve out;
    out.spec = spec;
    Matrix pts(spec.n, spec.fixedValues.size());
    for (int i = 0; i < spec.n; ++i) {
        pts.row(i) = spec.fixedValues.transpose();
        pts(i, spec.column) = spec.t(i);
    }
    // In the model's coordinates, as the marginals are: the curve's plot converts to the
    // column's own unit (a slice is not a 1-D density, and only that column is plotted).
    const LogDensity ld = model.modelLogValues(pts);
    out.logValues = ld.values;
    out.floored = ld.floored;
    return out;
}

std::string marginalUnavailableReason(const FittedModel& model)
{
    if (model.kind() == DensityKind::Score || model.kind() == DensityKind::Ratio) {
        return "a " + toString(model.kind()) + " is not a density: it has no marginal";
    }
    if (const KernelFieldModel* field = model.kernelField()) {
        const KernelOperator& k = *field->kernelOperator();
        if (k.spec().type != KernelType::Gaussian) {
            return "the " + toString(k.spec().type) +
                   " kernel's marginal has no closed form (the Gaussian's has)";
        }
        if (k.backend() == KernelBackend::LowRank) {
            return "random Fourier features have no centres to integrate in closed form";
        }
        if (model.kind() != DensityKind::Normalized || k.train().rows() == 0) {
            return "this model is not a normalized Gaussian field";
        }
        return {};
    }
    const long long components = model.mixtureComponents();
    if (components == 0) {
        return model.estimator() + " has no closed-form marginal";
    }
    if (double(components) * 256.0 > kMaxMixtureWork) {
        return "its Gaussian mixture has " + std::to_string(components) +
               " components, too many to integrate here";
    }
    return {};
}

DensityCurve marginalCurve(const FittedModel& model, const CurveSpec& spec,
                           const ProgressFn& progress)
{
    const std::string reason = marginalUnavailableReason(model);
    if (!reason.empty()) {
        throw std::invalid_argument(reason);
    }
    DensityCurve out;
    out.spec = spec;
    out.marginal = true;
    if (const KernelFieldModel* field = model.kernelField()) {
        if (!fieldMarginal(*field, spec, progress, &out)) {
            throw std::invalid_argument("the kernel has no centres to integrate");
        }
        return out;
    }
    const GaussianMixture g = model.gaussianMixture();
    const Vector t = curvePoints(spec);
    Vector curve = Vector::Zero(t.size());
    for (Eigen::Index k = 0; k < g.size(); ++k) {
        const double v = g.variances(k);
        if (!(v > 0.0)) {
            throw std::invalid_argument("the mixture has atoms: no density to integrate");
        }
        const double mu = g.centres(k, spec.column);
        curve.array() += g.weights(k) / std::sqrt(2.0 * M_PI * v) *
                         flushedExp((t.array() - mu).square() * (-0.5 / v));
        if (progress && k % 4096 == 4095 && !progress(int(k / 4096), int(g.size() / 4096 + 1))) {
            out.cancelled = true;
            return out;
        }
    }
    out.logValues = logOf(curve, g.weights.sum(), &out.floored);
    return out;
}

} // namespace sosrep
