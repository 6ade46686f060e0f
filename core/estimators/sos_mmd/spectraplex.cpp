// SPDX-License-Identifier: MIT
// Euclidean projections onto the simplex and the spectraplex.
#include "core/estimators/sos_mmd/spectraplex.h"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <functional>
#include <vector>

namespace sosrep {

Vector projectOntoSimplex(const Vector& v)
{
    std::vector<double> u(v.data(), v.data() + v.size());
    std::sort(u.begin(), u.end(), std::greater<double>());
    // theta = (sum of the rho largest - 1) / rho, rho the largest j with u_j > (css_j - 1) / j.
    double css = 0.0;
    double theta = 0.0;
    for (size_t j = 0; j < u.size(); ++j) {
        css += u[j];
        const double t = (css - 1.0) / double(j + 1);
        if (u[j] > t) {
            theta = t;
        }
    }
    return (v.array() - theta).max(0.0);
}

Matrix projectOntoSpectraplex(const Matrix& x)
{
    const Matrix s = 0.5 * (x + x.transpose());
    const Eigen::SelfAdjointEigenSolver<Matrix> eig(s);
    const Vector lambda = projectOntoSimplex(eig.eigenvalues());
    // Only the eigenvectors whose projected eigenvalue is positive enter (eigenvalues ascend,
    // so they are the last k): the iterates have low rank, and V diag V^T over all m columns
    // cost an m^3 product each FISTA step.
    Eigen::Index k = 0;
    while (k < lambda.size() && lambda(lambda.size() - 1 - k) > 0.0) {
        ++k;
    }
    const auto v = eig.eigenvectors().rightCols(k);
    return v * lambda.tail(k).asDiagonal() * v.transpose();
}

} // namespace sosrep
