// SPDX-License-Identifier: MIT
// The kernel SoS MMD objective, its gradient and its closed-form integrals.
#include "core/estimators/sos_mmd/sos_mmd_problem.h"

#include "core/errors.h"
#include "core/numerics/distances.h"
#include "core/numerics/flushed_exp.h"
#include "core/random.h"

#include <cmath>
#include <stdexcept>

namespace sosrep {
namespace {

Matrix symmetric(const Matrix& x)
{
    return 0.5 * (x + x.transpose());
}

} // namespace

SosMmdProblem::SosMmdProblem(const MatrixRef& support, const MatrixRef& data,
                             const SosMmdConfig& config, const Vector* weights)
    : m_support(support), m_config(config)
{
    const Vector a =
        weights ? *weights : Vector::Constant(data.rows(), 1.0 / static_cast<double>(data.rows()));
    if (a.size() != data.rows()) {
        throw std::invalid_argument("SosMmdProblem: one weight per data row");
    }
    const double d = static_cast<double>(support.cols());
    const double l2 = config.lengthScale * config.lengthScale;
    const double logW0 = 0.5 * d * std::log(M_PI * l2);
    const double logU0 = 0.5 * d * std::log(2.0 * M_PI * l2 / 3.0);
    if (!(std::abs(logW0) < 600.0 && std::abs(logU0) < 600.0)) {
        throw ParameterError("length_scale", "(pi l^2)^(d/2) leaves double precision for d = " +
                                                 std::to_string(support.cols()) +
                                                 ": scale the data or choose another l");
    }
    formIntegrals(logW0, logU0);
    // Data: c = K~^-1 K(X~, X) a (the kernel-smoothed data at the support points).
    Vector smoothed = Vector::Zero(m());
    for (Eigen::Index b = 0; b < data.rows(); b += 1024) {
        const Eigen::Index rows = std::min<Eigen::Index>(1024, data.rows() - b);
        smoothed += (squaredDistances(support, data.middleRows(b, rows)) * (-0.5 / l2))
                        .array()
                        .exp()
                        .matrix() *
                    a.segment(b, rows);
    }
    m_c = m_ktFactor.solve(smoothed);
    m_cKc = m_c.dot(m_kt * m_c);
    if (config.objective == SosObjective::Exact) {
        formExactTerms(data, a);
    }
}

void SosMmdProblem::formIntegrals(double logW0, double logU0)
{
    const Eigen::Index m = m_support.rows();
    const double l2 = m_config.lengthScale * m_config.lengthScale;
    m_d2 = squaredDistances(m_support, m_support);
    m_kt = flushedExp(m_d2 * (-0.5 / l2));
    m_w = std::exp(logW0) * flushedExp(m_d2 * (-0.25 / l2));
    m_u0 = std::exp(logU0);
    // K~^-1 and the whitening of W, both with the relative jitter of Remark 1.
    m_ktFactor.compute(m_kt + m_config.jitter * Matrix::Identity(m, m));
    const Eigen::LLT<Matrix> wFactor(m_w + m_config.jitter * m_w(0, 0) * Matrix::Identity(m, m));
    if (m_ktFactor.info() != Eigen::Success || wFactor.info() != Eigen::Success) {
        throw NumericalError("the support points' kernel matrices are singular: raise the jitter "
                             "or use fewer support points");
    }
    // W + eps I = L L^T = R^T R with R = L^T, so R^-1 = L^-T.
    m_ri = wFactor.matrixU().solve(Matrix::Identity(m, m));
    m_ktc = m_ri.transpose() * m_kt * m_ri;
    m_uc.resize(m * m, m);
    for (Eigen::Index r = 0; r < m; ++r) {
        const Matrix slice = m_ri.transpose() * uSlice(r) * m_ri;
        m_uc.col(r) = Eigen::Map<const Vector>(slice.data(), slice.size());
    }
}

Matrix SosMmdProblem::uSlice(Eigen::Index r) const
{
    const Eigen::Index m = m_support.rows();
    const double l2 = m_config.lengthScale * m_config.lengthScale;
    Matrix slice(m, m);
    for (Eigen::Index q = 0; q < m; ++q) {
        for (Eigen::Index p = 0; p < m; ++p) {
            slice(p, q) = m_u0 * std::exp(-(m_d2(p, q) + m_d2(p, r) + m_d2(q, r)) / (6.0 * l2));
        }
    }
    return slice;
}

void SosMmdProblem::formExactTerms(const MatrixRef& data, const Vector& a)
{
    // The exact MMD^2 with the model's kernel exp(-|x-y|^2 / 2 l^2): the components are
    // N(m_pq, (l^2/2) I), so E k between two components is 2^(-d/2) exp(-|m_pq - m_rs|^2 / 4 l^2)
    // and against a data point (2/3)^(d/2) exp(-|m_pq - x_i|^2 / 3 l^2) (digest 1.5).
    const Eigen::Index m = m_support.rows();
    if (m > 40) {
        throw ParameterError("objective", "exact needs at most 40 support points (its matrix has "
                                          "m^4 entries); use projected");
    }
    const double d = static_cast<double>(m_support.cols());
    const double l2 = m_config.lengthScale * m_config.lengthScale;
    Matrix centres(m * m, m_support.cols());
    for (Eigen::Index p = 0; p < m; ++p) {
        for (Eigen::Index q = 0; q < m; ++q) {
            centres.row(p * m + q) = 0.5 * (m_support.row(p) + m_support.row(q));
        }
    }
    m_g = std::pow(0.5, 0.5 * d) *
          (squaredDistances(centres, centres) * (-0.25 / l2)).array().exp().matrix();
    m_e = Vector::Zero(m * m);
    double dataTerm = 0.0;
    for (Eigen::Index b = 0; b < data.rows(); b += 1024) {
        const Eigen::Index rows = std::min<Eigen::Index>(1024, data.rows() - b);
        m_e += (squaredDistances(centres, data.middleRows(b, rows)) * (-1.0 / (3.0 * l2)))
                   .array()
                   .exp()
                   .matrix() *
               a.segment(b, rows);
        dataTerm +=
            a.segment(b, rows).dot((squaredDistances(data.middleRows(b, rows), data) * (-0.5 / l2))
                                       .array()
                                       .exp()
                                       .matrix() *
                                   a);
    }
    m_e *= std::pow(2.0 / 3.0, 0.5 * d);
    m_dataTerm = dataTerm;
}

Vector SosMmdProblem::u(const Matrix& b) const
{
    Vector out(m());
    for (Eigen::Index r = 0; r < m(); ++r) {
        out(r) = uSlice(r).cwiseProduct(b).sum();
    }
    return out;
}

Matrix SosMmdProblem::uStar(const Vector& y) const
{
    Matrix out = Matrix::Zero(m(), m());
    for (Eigen::Index r = 0; r < m(); ++r) {
        out += y(r) * uSlice(r);
    }
    return out;
}

double SosMmdProblem::projectedMmd2(const Vector& u) const
{
    return u.dot(m_ktFactor.solve(u)) - 2.0 * m_c.dot(u) + m_cKc;
}

SosMmdProblem::Value SosMmdProblem::value(const Matrix& b) const
{
    Value out;
    if (m_config.objective == SosObjective::Exact) {
        const Matrix bw = b.cwiseProduct(m_w);
        const Eigen::Map<const Vector> w(bw.data(), bw.size());
        out.mmd2 = m_dataTerm - 2.0 * m_e.dot(w) + w.dot(m_g * w);
    } else {
        out.mmd2 = projectedMmd2(u(b));
    }
    const double reg = m_config.regularizer == SosRegularizer::Trace
                           ? b.cwiseProduct(m_kt).sum()
                           : b.cwiseProduct(m_kt * b * m_kt).sum();
    out.objective = out.mmd2 + m_config.lambda * reg;
    return out;
}

Matrix SosMmdProblem::gradient(const Matrix& b) const
{
    Matrix g;
    if (m_config.objective == SosObjective::Exact) {
        const Matrix bw = b.cwiseProduct(m_w);
        const Eigen::Map<const Vector> w(bw.data(), bw.size());
        const Vector gw = 2.0 * (m_g * w - m_e);
        g = Eigen::Map<const Matrix>(gw.data(), m(), m()).cwiseProduct(m_w);
    } else {
        // dJ/dB = 2 U*(K~^-1 U(B) - c) (digest 2.3).
        g = 2.0 * uStar(m_ktFactor.solve(u(b)) - m_c);
    }
    if (m_config.regularizer == SosRegularizer::Trace) {
        g += m_config.lambda * m_kt;
    } else {
        g += 2.0 * m_config.lambda * (m_kt * b * m_kt);
    }
    return symmetric(g);
}

Vector SosMmdProblem::uOfC(const Matrix& c) const
{
    if (m_config.objective == SosObjective::Exact) {
        return {};
    }
    return m_uc.transpose() * Eigen::Map<const Vector>(c.data(), c.size());
}

SosMmdProblem::Value SosMmdProblem::valueInC(const Matrix& c, const Vector& uc) const
{
    if (m_config.objective == SosObjective::Exact) {
        return value(toB(c));
    }
    // Tr(B K~) = <C, R^-T K~ R^-1> and <B, K~ B K~> = <C, K^ C K^> with K^ = R^-T K~ R^-1.
    Value out;
    out.mmd2 = projectedMmd2(uc);
    const double reg = m_config.regularizer == SosRegularizer::Trace
                           ? c.cwiseProduct(m_ktc).sum()
                           : c.cwiseProduct(m_ktc * c * m_ktc).sum();
    out.objective = out.mmd2 + m_config.lambda * reg;
    return out;
}

Matrix SosMmdProblem::gradientInC(const Matrix& c, const Vector& uc) const
{
    if (m_config.objective == SosObjective::Exact) {
        return m_ri.transpose() * gradient(toB(c)) * m_ri;
    }
    // R^-T (dJ/dB) R^-1 = 2 U~*(K~^-1 U~(C) - c) + the regularizer's (digest 2.3).
    const Vector y = 2.0 * (m_ktFactor.solve(uc) - m_c);
    const Vector g = m_uc * y;
    Matrix out = Eigen::Map<const Matrix>(g.data(), m(), m());
    if (m_config.regularizer == SosRegularizer::Trace) {
        out += m_config.lambda * m_ktc;
    } else {
        out += 2.0 * m_config.lambda * (m_ktc * c * m_ktc);
    }
    return symmetric(out);
}

Matrix SosMmdProblem::hessianTimesC(const Matrix& e) const
{
    Matrix h;
    if (m_config.objective == SosObjective::Exact) {
        const Matrix ew = toB(e).cwiseProduct(m_w);
        const Vector hw = 2.0 * (m_g * Eigen::Map<const Vector>(ew.data(), ew.size()));
        h = m_ri.transpose() * Eigen::Map<const Matrix>(hw.data(), m(), m()).cwiseProduct(m_w) *
            m_ri;
    } else {
        const Vector g = m_uc * (2.0 * m_ktFactor.solve(uOfC(e)));
        h = Eigen::Map<const Matrix>(g.data(), m(), m());
    }
    if (m_config.regularizer == SosRegularizer::Frobenius) {
        h += 2.0 * m_config.lambda * (m_ktc * e * m_ktc);
    }
    return symmetric(h);
}

double SosMmdProblem::lipschitz(int iterations, uint64_t seed) const
{
    Rng rng(seed);
    Matrix e(m(), m());
    for (Eigen::Index i = 0; i < e.size(); ++i) {
        e.data()[i] = rng.normal();
    }
    e = symmetric(e);
    e /= e.norm();
    double value = 0.0;
    for (int k = 0; k < iterations; ++k) {
        const Matrix he = hessianTimesC(e);
        value = e.cwiseProduct(he).sum(); // Rayleigh quotient (|e| = 1)
        const double norm = he.norm();
        if (!(norm > 0.0)) {
            break;
        }
        e = he / norm;
    }
    return value;
}

Matrix SosMmdProblem::normalized(const Matrix& b) const
{
    return b / b.cwiseProduct(m_w).sum();
}

} // namespace sosrep
