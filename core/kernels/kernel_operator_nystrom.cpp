// SPDX-License-Identifier: MIT
// The Nystroem back-end of KernelOperator: landmarks, K_nm on the distinct rows, K_mm^+.
#include "core/kernels/kernel_operator.h"

#include "core/data/split.h"
#include "core/kernels/sweep_workspace.h"
#include "core/random.h"
#include "core/util/limits.h"

#include <Eigen/Eigenvalues>

#include <algorithm>

namespace sosrep {

namespace {

/// Landmarks: a seeded uniform sample of the training rows without replacement (partial
/// Fisher-Yates), so the same seed gives the same approximation for every length scale. Rows
/// that repeat exactly share one row of K_nm: products then cost the distinct rows, not all of
/// them (all of skin: 51 433 of 245 057), and give the same K up to the order of sums.
NystromGeometry makeGeometry(const Matrix& train, uint64_t seed, Eigen::Index rank)
{
    const Eigen::Index n = train.rows();
    const Eigen::Index m = std::min<Eigen::Index>(rank, n);
    NystromGeometry g;
    g.seed = seed;
    g.rank = rank;
    std::vector<Eigen::Index> order(static_cast<size_t>(n));
    for (Eigen::Index i = 0; i < n; ++i) {
        order[static_cast<size_t>(i)] = i;
    }
    Rng rng(seed ^ 0x9e3779b97f4a7c15ULL);
    g.landmarks.resize(m, train.cols());
    for (Eigen::Index i = 0; i < m; ++i) {
        const auto j = i + static_cast<Eigen::Index>(rng.uniform() * double(n - i));
        std::swap(order[static_cast<size_t>(i)], order[static_cast<size_t>(j)]);
        g.landmarks.row(i) = train.row(order[static_cast<size_t>(i)]);
    }
    const std::vector<std::vector<Eigen::Index>> groups = identicalRowGroups(train);
    const auto distinct = static_cast<Eigen::Index>(groups.size());
    if (distinct > n - n / 10) {
        checkMatrixSize(double(n), double(m), "rank",
                        "the " + std::to_string(n) + " x " + std::to_string(m) + " Nystroem block");
        g.distances = KernelOperator::crossDistances(train, g.landmarks);
        return g;
    }
    g.distinctOf.assign(static_cast<size_t>(n), 0);
    g.copies.resize(static_cast<size_t>(distinct));
    Matrix rows(distinct, train.cols());
    for (Eigen::Index r = 0; r < distinct; ++r) {
        rows.row(r) = train.row(groups[size_t(r)].front());
        g.copies[size_t(r)] = Eigen::Index(groups[size_t(r)].size());
        for (Eigen::Index i : groups[size_t(r)]) {
            g.distinctOf[size_t(i)] = r;
        }
    }
    checkMatrixSize(double(distinct), double(m), "rank",
                    "the " + std::to_string(distinct) + " x " + std::to_string(m) +
                        " Nystroem block");
    g.distances = KernelOperator::crossDistances(rows, g.landmarks);
    return g;
}

} // namespace

void KernelOperator::buildNystrom()
{
    // A sweep's fits on these rows share the geometry (landmarks, distinct rows, distances):
    // each length scale's K_nm is then one elementwise exp; alone, it is made here and dropped.
    const auto make = [this] { return makeGeometry(m_train, m_spec.seed, m_spec.rank); };
    const std::shared_ptr<const SweepWorkspace> workspace = m_workspace.lock();
    std::shared_ptr<const NystromGeometry> shared =
        workspace ? workspace->nystromGeometry(m_train, m_spec.seed, m_spec.rank, make) : nullptr;
    const NystromGeometry own = shared ? NystromGeometry() : make();
    const NystromGeometry& g = shared ? *shared : own;
    m_landmarks = g.landmarks;
    m_distinctOf = g.distinctOf;
    m_knm = kernelFromDistances(g.distances);
    const Eigen::Array<bool, Eigen::Dynamic, 1> uncovered =
        m_knm.rowwise().maxCoeff().array() < 1e-6;
    m_uncovered = 0;
    for (Eigen::Index r = 0; r < m_knm.rows(); ++r) {
        m_uncovered += uncovered(r) ? (g.copies.empty() ? 1 : g.copies[size_t(r)]) : 0;
    }
    Matrix kmm = exactCross(m_landmarks, m_landmarks);
    kmm.diagonal().setOnes();
    const Eigen::SelfAdjointEigenSolver<Matrix> eig(kmm);
    const Vector& lambda = eig.eigenvalues();
    // Eigenvalues below sqrt(eps) of the largest are dropped: inverting smaller ones amplifies
    // rounding (measured: 1e-5 relative error at 1e-12) more than dropping them costs.
    const double cut = 1e-8 * lambda.maxCoeff();
    Vector inv(lambda.size());
    for (Eigen::Index i = 0; i < lambda.size(); ++i) {
        inv(i) = lambda(i) > cut ? 1.0 / lambda(i) : 0.0;
    }
    m_pinv = eig.eigenvectors() * inv.asDiagonal() * eig.eigenvectors().transpose();
    // The kept eigenpairs as a factor, for diagonal(): eigenvalues ascend, so they are the last.
    const Eigen::Index kept = (lambda.array() > cut).count();
    m_pinvFactor = eig.eigenvectors().rightCols(kept) * inv.tail(kept).cwiseSqrt().asDiagonal();
    m_backend = KernelBackend::Nystrom;
    // K_nm K_mm^+ K_mn can have (small) negative entries even for a positive kernel.
    m_negativeEntries = true;
}

Matrix KernelOperator::sumsOverRepeats(const MatrixRef& a) const
{
    if (m_distinctOf.empty()) {
        return a;
    }
    Matrix out = Matrix::Zero(m_knm.rows(), a.cols());
    for (Eigen::Index i = 0; i < a.rows(); ++i) {
        out.row(m_distinctOf[size_t(i)]) += a.row(i);
    }
    return out;
}

Matrix KernelOperator::toEveryRow(const MatrixRef& distinct) const
{
    if (m_distinctOf.empty()) {
        return distinct;
    }
    Matrix out(Eigen::Index(m_distinctOf.size()), distinct.cols());
    for (Eigen::Index i = 0; i < out.rows(); ++i) {
        out.row(i) = distinct.row(m_distinctOf[size_t(i)]);
    }
    return out;
}

} // namespace sosrep
