// SPDX-License-Identifier: MIT
// A fitted kernel SoS density (PSD matrix B over the kernel features), saved and loaded.
#include "core/estimators/sos_mmd/sos_mmd_model.h"

#include "core/errors.h"
#include "core/estimators/score_terms.h"
#include "core/numerics/distances.h"
#include "core/numerics/flushed_exp.h"
#include "core/numerics/row_blocks.h"
#include "core/util/text.h"

#include <Eigen/Eigenvalues>

#include <cmath>
#include <limits>

namespace sosrep {
namespace {

constexpr double kFloor = 1e-300;

} // namespace

SosMmdModel::SosMmdModel(const Matrix& support, const Matrix& b, double lengthScale)
    : m_support(support), m_b(0.5 * (b + b.transpose())), m_l(lengthScale)
{
    if (support.rows() < 1 || m_b.rows() != support.rows() || m_b.cols() != support.rows()) {
        throw ParameterError("b", "must be a square matrix with one row per support point");
    }
    if (!m_support.allFinite() || !m_b.allFinite() || !(lengthScale > 0.0)) {
        throw ParameterError("b", "and the support points must be finite numbers");
    }
    // B = V diag(lambda) V^T, keeping the eigenvalues above 1e-12 of the largest and
    // renormalizing by Tr(BW) (digest 5.2): what is evaluated is exactly B >= 0, Tr(BW) = 1.
    const Eigen::SelfAdjointEigenSolver<Matrix> eig(m_b);
    const double top = eig.eigenvalues().maxCoeff();
    if (!(top > 0.0)) {
        throw ParameterError("b", "must be positive semidefinite and not zero");
    }
    if (eig.eigenvalues().minCoeff() < -1e-8 * top) {
        throw ParameterError("b", "is not positive semidefinite (an eigenvalue is " +
                                      numberText(eig.eigenvalues().minCoeff() / top, 6) +
                                      " of the largest)");
    }
    std::vector<Eigen::Index> kept;
    for (Eigen::Index k = 0; k < eig.eigenvalues().size(); ++k) {
        if (eig.eigenvalues()(k) > 1e-12 * top) {
            kept.push_back(k);
        }
    }
    m_v.resize(m_b.rows(), static_cast<Eigen::Index>(kept.size()));
    m_lambda.resize(static_cast<Eigen::Index>(kept.size()));
    for (size_t j = 0; j < kept.size(); ++j) {
        m_v.col(Eigen::Index(j)) = eig.eigenvectors().col(kept[j]);
        m_lambda(Eigen::Index(j)) = eig.eigenvalues()(kept[j]);
    }
    m_b = m_v * m_lambda.asDiagonal() * m_v.transpose();
    const double mass = traceBW();
    if (!(mass > 0.0) || !std::isfinite(mass)) {
        throw ParameterError(
            "b", "gives a model of zero or non-finite mass (Tr(BW) = " + numberText(mass, 6) + ")");
    }
    m_b /= mass;
    m_lambda /= mass;
    KernelSpec spec;
    spec.lengthScale = lengthScale;
    spec.backend = BackendChoice::Dense;
    m_kernel = std::make_shared<const KernelOperator>(support, spec);
}

SosMmdModel::SosMmdModel(const Matrix& support, double lengthScale)
    : m_support(support), m_l(lengthScale)
{
}

std::unique_ptr<SosMmdModel> SosMmdModel::fromFactors(const Matrix& support, const Matrix& vectors,
                                                      const Vector& values, double lengthScale)
{
    if (support.rows() < 1 || vectors.rows() != support.rows() || vectors.cols() != values.size() ||
        values.size() < 1) {
        throw ParameterError("b_eigenvectors", "must have one row per support point and one "
                                               "column per eigenvalue");
    }
    if (!support.allFinite() || !vectors.allFinite() || !(values.array() > 0.0).all() ||
        !values.allFinite() || !(lengthScale > 0.0)) {
        throw ParameterError("b_eigenvalues", "must be finite and positive, as must the support "
                                              "points and eigenvectors");
    }
    std::unique_ptr<SosMmdModel> model(new SosMmdModel(support, lengthScale));
    model->m_v = vectors;
    model->m_lambda = values;
    model->m_b = vectors * values.asDiagonal() * vectors.transpose();
    const double mass = model->traceBW();
    if (!(std::abs(mass - 1.0) < 1e-6)) {
        throw ParameterError("b_eigenvalues",
                             "give a model of mass Tr(BW) = " + numberText(mass, 9) + ", not 1");
    }
    KernelSpec spec;
    spec.lengthScale = lengthScale;
    spec.backend = BackendChoice::Dense;
    model->m_kernel = std::make_shared<const KernelOperator>(support, spec);
    return model;
}

Matrix SosMmdModel::shiftedKernel(const MatrixRef& y, Vector* shift) const
{
    Matrix e = squaredDistances(y, m_support) * (-0.5 / (m_l * m_l));
    *shift = e.rowwise().maxCoeff();
    e.colwise() -= *shift;
    return e.array().exp();
}

LogDensity SosMmdModel::modelLogValues(const MatrixRef& y) const
{
    LogDensity out;
    out.values.resize(y.rows());
    // Full-width blocks (row_blocks.h): a row's value does not depend on the batch.
    for (Eigen::Index b = 0; b < y.rows(); b += kInvariantBlock) {
        const Eigen::Index rows = std::min(kInvariantBlock, y.rows() - b);
        Vector shift;
        const Matrix k = shiftedKernel(paddedRows(y, b, rows, kInvariantBlock), &shift);
        const Matrix proj = k * m_v; // rows x r
        const Vector p = proj.array().square().matrix() * m_lambda;
        for (Eigen::Index i = 0; i < rows; ++i) {
            double v = p(i);
            if (!(v > kFloor)) {
                v = kFloor;
                ++out.floored;
            }
            out.values(b + i) = std::log(v) + 2.0 * shift(i);
        }
    }
    return out;
}

Matrix SosMmdModel::score(const MatrixRef& y) const
{
    // p = k^T B k, grad p = 2 J^T B k with J_i = dk_i/dx = -(x - x~_i) k_i / l^2 (digest 5.1).
    Matrix out(y.rows(), y.cols());
    const double l2 = m_l * m_l;
    Vector shift;
    const Matrix k = shiftedKernel(y, &shift);
    const Matrix bk = k * m_b; // rows x m: (B k)^T per row
    const Vector p = (bk.array() * k.array()).rowwise().sum();
    for (Eigen::Index i = 0; i < y.rows(); ++i) {
        const Vector w = (k.row(i).transpose().array() * bk.row(i).transpose().array()).matrix();
        // grad p = 2 sum_i (B k)_i k_i (-(x - x~_i)/l^2)
        const Vector grad =
            (-2.0 / l2) * (w.sum() * y.row(i).transpose() - m_support.transpose() * w);
        out.row(i) = (grad / p(i)).transpose();
    }
    return out;
}

Vector SosMmdModel::fisherTerms(const MatrixRef& y, int* invalid) const
{
    // Hyvaerinen term of log p: lap p / p - |grad p|^2 / p^2 + |grad p|^2 / (2 p^2), with
    // lap p = 2 sum_j [J_j^T B J_j + k^T B H_j], H_ij = ((x_j - x~_ij)^2 / l^4 - 1 / l^2) k_i
    // (the digest's formulas, in the convention exp(-r^2 / 2 l^2)).
    const double l2 = m_l * m_l;
    const Eigen::Index d = y.cols();
    Vector shift;
    const Matrix k = shiftedKernel(y, &shift);
    Vector terms(y.rows());
    for (Eigen::Index i = 0; i < y.rows(); ++i) {
        const Vector ki = k.row(i).transpose();
        const Vector bki = m_b * ki;
        const double p = ki.dot(bki);
        const Matrix diff = (-m_support).rowwise() + y.row(i); // m x d: x - x~_i
        Vector grad = Vector::Zero(d);
        double lap = 0.0;
        for (Eigen::Index j = 0; j < d; ++j) {
            const Vector jj = (-diff.col(j).array() / l2 * ki.array()).matrix(); // J_{:,j}
            const Vector hj =
                ((diff.col(j).array().square() / (l2 * l2) - 1.0 / l2) * ki.array()).matrix();
            grad(j) = 2.0 * jj.dot(bki);
            lap += 2.0 * (jj.dot(m_b * jj) + hj.dot(bki));
        }
        terms(i) = lap / p - 0.5 * grad.squaredNorm() / (p * p);
    }
    const int bad = markInvalidTerms(terms);
    if (invalid) {
        *invalid = bad;
    }
    return terms;
}

Vector SosMmdModel::fisherTermsFiniteDifference(const MatrixRef& y, const HutchinsonConfig& config,
                                                int* invalid) const
{
    return hutchinsonFisherTerms([this](const MatrixRef& z) { return score(z); }, y, config, m_l,
                                 invalid);
}

Matrix SosMmdModel::mixtureWeights() const
{
    const double l2 = m_l * m_l;
    const double d = static_cast<double>(m_support.cols());
    const Matrix w = std::pow(M_PI * l2, 0.5 * d) *
                     flushedExp(squaredDistances(m_support, m_support) * (-0.25 / l2));
    return m_b.cwiseProduct(w);
}

long long SosMmdModel::mixtureComponents() const
{
    return quadraticFormComponents(m_support.rows());
}

GaussianMixture SosMmdModel::gaussianMixture() const
{
    return quadraticFormMixture(m_support, m_b, m_l);
}

double SosMmdModel::traceBW() const
{
    return mixtureWeights().sum();
}

Vector SosMmdModel::mean() const
{
    // sum_pq omega_pq (x_p + x_q) / 2 = (omega 1)^T X (omega symmetric).
    const Matrix omega = mixtureWeights();
    return m_support.transpose() * omega.rowwise().sum();
}

Matrix SosMmdModel::covariance() const
{
    const Matrix omega = mixtureWeights();
    const Eigen::Index m = m_support.rows();
    const Eigen::Index d = m_support.cols();
    Matrix second = Matrix::Zero(d, d);
    for (Eigen::Index p = 0; p < m; ++p) {
        for (Eigen::Index q = 0; q < m; ++q) {
            const Vector c = 0.5 * (m_support.row(p) + m_support.row(q)).transpose();
            second += omega(p, q) * c * c.transpose();
        }
    }
    const Vector mu = mean();
    return second - mu * mu.transpose() + 0.5 * m_l * m_l * Matrix::Identity(d, d) * omega.sum();
}

Vector SosMmdModel::logMarginal(const std::vector<int>& columns, const MatrixRef& y) const
{
    const Eigen::Index m = m_support.rows();
    const double s2 = 0.5 * m_l * m_l; // component variance
    const double dm = static_cast<double>(columns.size());
    const Matrix omega = mixtureWeights();
    Matrix sub(m, static_cast<Eigen::Index>(columns.size()));
    for (size_t j = 0; j < columns.size(); ++j) {
        sub.col(Eigen::Index(j)) = m_support.col(columns[j]);
    }
    Vector out(y.rows());
    const double norm = -0.5 * dm * std::log(2.0 * M_PI * s2);
    for (Eigen::Index i = 0; i < y.rows(); ++i) {
        // Signed mixture: exponents shifted by their maximum, so the sum does not underflow.
        Matrix e(m, m);
        for (Eigen::Index p = 0; p < m; ++p) {
            for (Eigen::Index q = 0; q < m; ++q) {
                const Vector c = 0.5 * (sub.row(p) + sub.row(q)).transpose();
                e(p, q) = -0.5 * (y.row(i).transpose() - c).squaredNorm() / s2;
            }
        }
        const double top = e.maxCoeff();
        const double v = omega.cwiseProduct((e.array() - top).exp().matrix()).sum();
        out(i) = norm + top + std::log(std::max(v, kFloor));
    }
    return out;
}

void SosMmdModel::save(ParameterMap& out) const
{
    out.set("support", m_support);
    out.set("b_eigenvectors", m_v);
    out.set("b_eigenvalues", m_lambda);
}

SummaryFields SosMmdModel::summary() const
{
    SummaryFields s;
    s.emplace_back("support_points", static_cast<long long>(m_support.rows()));
    s.emplace_back("rank_b", static_cast<long long>(rank()));
    s.emplace_back("trace_bw", traceBW());
    s.emplace_back("sigma", m_l * std::sqrt(2.0));
    return s;
}

} // namespace sosrep
