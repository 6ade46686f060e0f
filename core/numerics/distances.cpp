// SPDX-License-Identifier: MIT
#include "core/numerics/distances.h"

namespace sosrep {

Matrix squaredDistances(const MatrixRef& a, const MatrixRef& b)
{
    Matrix d2 = -2.0 * (a * b.transpose());
    d2.colwise() += a.rowwise().squaredNorm();
    d2.rowwise() += b.rowwise().squaredNorm().transpose();
    return d2.cwiseMax(0.0);
}

} // namespace sosrep
