// SPDX-License-Identifier: MIT
// FIRE's linear systems (the losses of its Eqs. 11-21), exact or by Fourier features.
#include "core/ratio/fire_system.h"

#include "core/errors.h"
#include "core/numerics/banded_solvers.h"
#include "core/numerics/lanczos.h"
#include "core/random.h"
#include "core/ratio/ratio_gaussian.h"
#include "core/util/text.h"

#include <Eigen/Eigenvalues>
#include <Eigen/LU>

#include <algorithm>
#include <cmath>

namespace sosrep {

namespace {

/// The filtered coefficients in T's basis: (T^3 + lambda)^-1 T c, factored as (T + a)(T^2 -
/// a T + a^2) with a = lambda^(1/3) (both factors positive definite for T >= 0, so each
/// solve is a Cholesky), or (T^2 + lambda)^-1 c.
Vector filteredSolve(FireLoss loss, const SymmetricTridiagonal& t, double lambda, const Vector& c)
{
    if (loss == FireLoss::Rkhs) {
        return solveTridiagonalQuadratic(t, 0.0, lambda, c);
    }
    const double a = std::cbrt(lambda);
    return solveTridiagonalQuadratic(t, -a, a * a, solveShiftedTridiagonal(t, a, t.times(c)));
}

} // namespace

/// Kpp = Q T Q^T with Householder Q (the reduction), or Kpp Q ~ Q T with a Lanczos basis Q
/// (n x m) of the Krylov space from b.
struct FireFit::TridiagonalForm
{
    Eigen::Tridiagonalization<Matrix> reduction;
    Matrix lanczosBasis; // empty: the reduction's Q
    SymmetricTridiagonal t;
    Vector projected; // Q^T b

    Vector solve(FireLoss loss, double lambda) const
    {
        return filteredSolve(loss, t, lambda, projected);
    }
    Vector fromBasis(const Vector& w) const
    {
        return lanczosBasis.size() > 0 ? Vector(lanczosBasis * w) : Vector(reduction.matrixQ() * w);
    }

    /// Tries the Lanczos basis (setup.krylovTolerance > 0); false when it did not converge.
    bool lanczosFrom(const Matrix& kpp, const Vector& b, const FireSetup& setup)
    {
        std::vector<Vector> previous(setup.krylovLambdas.size());
        const auto converged = [&](const SymmetricTridiagonal& tm) {
            bool all = true;
            Vector e1 = Vector::Zero(tm.size());
            e1(0) = 1.0;
            for (size_t k = 0; k < previous.size(); ++k) {
                const Vector y = filteredSolve(setup.loss, tm, setup.krylovLambdas[k], e1);
                Vector before = Vector::Zero(y.size());
                before.head(previous[k].size()) = previous[k];
                all = all && previous[k].size() > 0 &&
                      (y - before).norm() <= setup.krylovTolerance * y.norm();
                previous[k] = y;
            }
            return all;
        };
        const auto basis = lanczos(kpp, b, std::max<Eigen::Index>(kpp.rows() / 4, 8), 8, converged);
        if (!basis) {
            return false;
        }
        lanczosBasis = basis->q;
        t = basis->t;
        projected = Vector::Zero(t.size());
        projected(0) = basis->norm;
        return true;
    }
};

namespace {

Matrix symmetrized(const Matrix& a)
{
    return 0.5 * (a + a.transpose());
}

} // namespace

std::string toString(FireLoss loss)
{
    switch (loss) {
    case FireLoss::L2p:
        return "l2p";
    case FireLoss::Mixed:
        return "mixed";
    case FireLoss::Rkhs:
        return "rkhs";
    case FireLoss::Cutoff:
        return "cutoff";
    }
    return "l2p";
}

FireLoss fireLossFromString(const std::string& text)
{
    for (FireLoss l : {FireLoss::L2p, FireLoss::Mixed, FireLoss::Rkhs, FireLoss::Cutoff}) {
        if (toString(l) == text) {
            return l;
        }
    }
    throw ParameterError("loss", quotedText(text) + " is not one of l2p, mixed, rkhs, cutoff");
}

FourierFeatures FourierFeatures::draw(int dim, int count, double t, uint64_t seed)
{
    Rng rng(seed);
    FourierFeatures f;
    f.frequencies.resize(count, dim);
    f.phases.resize(count);
    const double scale = 1.0 / std::sqrt(t);
    for (int k = 0; k < count; ++k) {
        for (int j = 0; j < dim; ++j) {
            f.frequencies(k, j) = rng.normal() * scale;
        }
        f.phases(k) = 2.0 * 3.14159265358979323846 * rng.uniform();
    }
    return f;
}

Matrix FourierFeatures::map(const MatrixRef& x) const
{
    Matrix z = x * frequencies.transpose();
    z.rowwise() += phases.transpose();
    const double a = std::sqrt(2.0 / static_cast<double>(phases.size()));
    return (z.array().cos() * a).matrix();
}

std::shared_ptr<const FireFit> FireFit::build(const MatrixRef& xp, const RatioTarget& target,
                                              double t, const FireSetup& setup)
{
    if (!(t > 0.0) || !std::isfinite(t)) {
        throw ParameterError("t", "must be a positive number");
    }
    if (target.typeTwo() && (setup.loss == FireLoss::Mixed || setup.loss == FireLoss::Rkhs)) {
        throw ParameterError("loss", toString(setup.loss) +
                                         " needs a sample of q (Type I); with q known as a "
                                         "function use l2p or cutoff (paper section 3.6)");
    }
    if (!target.typeTwo() && !target.sample) {
        throw ParameterError("q", "neither a sample of q nor its values were given");
    }
    std::shared_ptr<FireFit> fit(new FireFit());
    fit->m_setup = setup;
    fit->m_t = t;
    fit->m_typeTwo = target.typeTwo();
    // Type II solves K_t f = q with the delta family k_t = c g_t, i.e. g_t f = q / c.
    Vector qOverC;
    if (target.typeTwo()) {
        const double dim =
            target.intrinsicDim > 0.0 ? target.intrinsicDim : static_cast<double>(xp.cols());
        qOverC = *target.values / deltaNormalizer(t, dim);
    }
    if (setup.form == FireForm::Features) {
        fit->buildFeatures(xp, target, qOverC);
    } else {
        fit->buildExact(xp, target, qOverC);
    }
    return fit;
}

void FireFit::buildFeatures(const MatrixRef& xp, const RatioTarget& target, const Vector& qOverC)
{
    const FireSetup& setup = m_setup;
    const double n = static_cast<double>(xp.rows());
    const double t = m_t;
    m_features = FourierFeatures::draw(static_cast<int>(xp.cols()), setup.features, t, setup.seed);
    const Matrix phiP = m_features.map(xp);
    const Matrix cp = symmetrized(phiP.transpose() * phiP / n);
    if (target.typeTwo()) {
        const Vector s = phiP.transpose() * qOverC / n;
        Eigen::SelfAdjointEigenSolver<Matrix> eig(cp);
        m_vectors = eig.eigenvectors();
        m_eigenvalues = eig.eigenvalues();
        m_projected = m_vectors.transpose() * s;
        m_sampleBasis = phiP * m_vectors;
        return;
    }
    const Matrix phiQ = m_features.map(*target.sample);
    const Vector muQ = phiQ.colwise().mean().transpose();
    if (setup.loss == FireLoss::Mixed) {
        const Matrix cq = phiQ.transpose() * phiQ / static_cast<double>(phiQ.rows());
        const Matrix m = setup.gamma * cp + (1.0 - setup.gamma) * cq;
        Eigen::SelfAdjointEigenSolver<Matrix> eig(symmetrized(cp * m * cp));
        m_vectors = eig.eigenvectors();
        m_eigenvalues = eig.eigenvalues();
        m_projected = m_vectors.transpose() * (cp * (m * muQ));
        return;
    }
    Eigen::SelfAdjointEigenSolver<Matrix> eig(cp);
    m_vectors = eig.eigenvectors();
    m_eigenvalues = eig.eigenvalues();
    m_projected = m_vectors.transpose() * (cp * muQ);
}

void FireFit::buildExact(const MatrixRef& xp, const RatioTarget& target, const Vector& qOverC)
{
    const FireSetup& setup = m_setup;
    const double n = static_cast<double>(xp.rows());
    const double t = m_t;
    m_xp = xp;
    const Matrix kpp = gaussianGram(xp, xp, t) / n;
    const Vector b = target.typeTwo() ? qOverC : gaussianRowMeans(xp, *target.sample, t);
    if (setup.loss == FireLoss::Mixed) {
        // Eq. 13 with lambda I (digest 1.4): A = (g/n) Kpp^2 + ((1-g)/m) Kqp^T Kqp, K_H = n Kpp,
        // K_1 1 = (g/n) Kpp b + ((1-g)/m) Kqp^T (Kqq 1).
        const Matrix& xq = *target.sample;
        const double m = static_cast<double>(xq.rows());
        const double g = setup.gamma;
        const Matrix kqp = gaussianGram(xq, xp, t) / n;
        const Matrix a = (g / n) * (kpp * kpp) + ((1.0 - g) / m) * (kqp.transpose() * kqp);
        m_mixedSystem = a * (n * kpp);
        m_mixedRhs =
            (g / n) * (kpp * b) + ((1.0 - g) / m) * (kqp.transpose() * gaussianRowMeans(xq, xq, t));
        return;
    }
    if (setup.loss != FireLoss::Cutoff) {
        auto form = std::make_shared<TridiagonalForm>();
        const bool krylov = setup.krylovTolerance > 0.0 && !setup.krylovLambdas.empty() &&
                            b.norm() > 0.0 && form->lanczosFrom(kpp, b, setup);
        if (!krylov) {
            form->reduction.compute(kpp);
            form->t.diagonal = form->reduction.diagonal();
            form->t.subDiagonal = form->reduction.subDiagonal();
            form->projected = form->reduction.matrixQ().adjoint() * b;
        }
        m_tridiagonal = std::move(form);
        return;
    }
    Eigen::SelfAdjointEigenSolver<Matrix> eig(kpp);
    m_vectors = eig.eigenvectors();
    m_eigenvalues = eig.eigenvalues();
    m_projected = m_vectors.transpose() * b;
}

Vector FireFit::filter(double lambda) const
{
    const bool mixedFeatures = m_setup.loss == FireLoss::Mixed;
    Vector f(m_eigenvalues.size());
    for (Eigen::Index i = 0; i < f.size(); ++i) {
        const double s = m_eigenvalues(i);
        if (mixedFeatures) {
            f(i) = 1.0 / (s + lambda);
            continue;
        }
        switch (m_setup.loss) {
        case FireLoss::L2p:
        case FireLoss::Mixed:
            f(i) = s / (s * s * s + lambda);
            break;
        case FireLoss::Rkhs:
            f(i) = 1.0 / (s * s + lambda);
            break;
        case FireLoss::Cutoff:
            f(i) = s * s * s > lambda ? 1.0 / (s * s) : 0.0;
            break;
        }
    }
    return f;
}

Vector FireFit::coefficients(double lambda) const
{
    if (!(lambda > 0.0) && m_setup.loss != FireLoss::Cutoff) {
        throw ParameterError("lambda", "must be positive");
    }
    if (m_setup.form == FireForm::Exact && m_setup.loss == FireLoss::Mixed) {
        const Eigen::Index n = m_mixedSystem.rows();
        Matrix sys = m_mixedSystem;
        sys.diagonal().array() += lambda;
        return static_cast<double>(n) * sys.partialPivLu().solve(m_mixedRhs);
    }
    if (m_tridiagonal) {
        return m_tridiagonal->fromBasis(m_tridiagonal->solve(m_setup.loss, lambda));
    }
    return m_vectors * filter(lambda).cwiseProduct(m_projected);
}

int FireFit::cutoffRank(double lambda) const
{
    if (m_setup.loss != FireLoss::Cutoff) {
        return static_cast<int>(
            std::max({m_eigenvalues.size(), m_mixedSystem.rows(),
                      m_tridiagonal ? m_tridiagonal->t.size() : Eigen::Index(0)}));
    }
    return static_cast<int>((m_eigenvalues.array().cube() > lambda).count());
}

Vector FireFit::sampleValues(double lambda) const
{
    if (m_setup.form == FireForm::Features) {
        if (m_sampleBasis.size() > 0) {
            return m_sampleBasis * filter(lambda).cwiseProduct(m_projected);
        }
        return values(m_xp, lambda);
    }
    if (m_setup.loss == FireLoss::Mixed) {
        return values(m_xp, lambda);
    }
    if (m_tridiagonal) { // Kpp v = Q T w
        const TridiagonalForm& f = *m_tridiagonal;
        return f.fromBasis(f.t.times(f.solve(m_setup.loss, lambda)));
    }
    return m_vectors * m_eigenvalues.cwiseProduct(filter(lambda)).cwiseProduct(m_projected);
}

Vector FireFit::values(const MatrixRef& y, double lambda) const
{
    const Vector c = coefficients(lambda);
    if (m_setup.form == FireForm::Features) {
        return m_features.map(y) * c;
    }
    return gaussianExpansion(y, m_xp, c, m_t) / static_cast<double>(m_xp.rows());
}

FireFit::Evaluator FireFit::evaluator(const MatrixRef& y) const
{
    Evaluator e;
    e.m_fit = this;
    if (m_setup.form == FireForm::Features) {
        e.m_basis = m_features.map(y) * m_vectors;
    } else if (m_setup.loss == FireLoss::Mixed || m_tridiagonal) {
        e.m_basis = gaussianGram(y, m_xp, m_t) / static_cast<double>(m_xp.rows());
    } else {
        e.m_basis = gaussianGram(y, m_xp, m_t) * m_vectors / static_cast<double>(m_xp.rows());
    }
    return e;
}

Vector FireFit::Evaluator::at(double lambda) const
{
    const FireFit& f = *m_fit;
    if (f.m_setup.form == FireForm::Exact &&
        (f.m_setup.loss == FireLoss::Mixed || f.m_tridiagonal)) {
        return m_basis * f.coefficients(lambda);
    }
    return m_basis * f.filter(lambda).cwiseProduct(f.m_projected);
}

} // namespace sosrep
