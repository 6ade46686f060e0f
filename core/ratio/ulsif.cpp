// SPDX-License-Identifier: MIT
// uLSIF's closed-form solution and its leave-one-out score.
#include "core/ratio/ulsif.h"

#include <Eigen/Cholesky>
#include <Eigen/LU>

namespace sosrep {

Matrix UlsifSystem::h() const
{
    return phiP.transpose() * phiP / static_cast<double>(phiP.rows());
}

Vector UlsifSystem::hq() const
{
    return phiQ.colwise().mean().transpose();
}

Vector ulsifCoefficients(const UlsifSystem& s, double lambda, int* clipped)
{
    Matrix a = s.h();
    a.diagonal().array() += lambda;
    const Vector raw = a.ldlt().solve(s.hq());
    if (clipped) {
        *clipped = static_cast<int>((raw.array() < 0.0).count());
    }
    return raw.cwiseMax(0.0);
}

double ulsifLeaveOneOut(const UlsifSystem& s, double lambda)
{
    const double nde = static_cast<double>(s.phiP.rows());
    const double nnu = static_cast<double>(s.phiQ.rows());
    const Eigen::Index nmin = std::min(s.phiP.rows(), s.phiQ.rows());
    // Columns are the left-out pairs (x_l, x'_l), l < nmin.
    const Matrix xde = s.phiP.topRows(nmin).transpose(); // b x nmin
    const Matrix xnu = s.phiQ.topRows(nmin).transpose();
    Matrix bm = s.h();
    bm.diagonal().array() += lambda * (nde - 1.0) / nde;
    const Eigen::PartialPivLU<Matrix> lu(bm);
    const Matrix binv = lu.inverse();
    const Vector hh = s.hq();
    const Matrix binvXde = binv * xde;
    const Vector denom =
        (Vector::Constant(nmin, nde) - xde.cwiseProduct(binvXde).colwise().sum().transpose());
    const Vector a0 = (hh.transpose() * binvXde).transpose().cwiseQuotient(denom);
    const Vector a1 = xnu.cwiseProduct(binvXde).colwise().sum().transpose().cwiseQuotient(denom);
    Matrix b0 = (binv * hh).replicate(1, nmin) + binvXde * a0.asDiagonal();
    Matrix b1 = binv * xnu + binvXde * a1.asDiagonal();
    const Matrix b2 = ((nde - 1.0) / (nde * (nnu - 1.0)) * (nnu * b0 - b1)).cwiseMax(0.0);
    const Vector rde = xde.cwiseProduct(b2).colwise().sum().transpose();
    const Vector rnu = xnu.cwiseProduct(b2).colwise().sum().transpose();
    return rde.squaredNorm() / (2.0 * static_cast<double>(nmin)) -
           rnu.sum() / static_cast<double>(nmin);
}

double ulsifLeaveOneOutBruteForce(const UlsifSystem& s, double lambda)
{
    const double nde = static_cast<double>(s.phiP.rows());
    const double nnu = static_cast<double>(s.phiQ.rows());
    const Eigen::Index nmin = std::min(s.phiP.rows(), s.phiQ.rows());
    const Matrix hfull = s.h() * nde;
    const Vector hqfull = s.hq() * nnu;
    double score = 0.0;
    for (Eigen::Index l = 0; l < nmin; ++l) {
        const Vector pl = s.phiP.row(l).transpose();
        const Vector ql = s.phiQ.row(l).transpose();
        Matrix hl = (hfull - pl * pl.transpose()) / (nde - 1.0);
        hl.diagonal().array() += lambda;
        const Vector alpha = hl.partialPivLu().solve((hqfull - ql) / (nnu - 1.0)).cwiseMax(0.0);
        const double rp = pl.dot(alpha);
        score += 0.5 * rp * rp - ql.dot(alpha);
    }
    return score / static_cast<double>(nmin);
}

} // namespace sosrep
