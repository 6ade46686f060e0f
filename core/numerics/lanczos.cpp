// SPDX-License-Identifier: MIT
// The Lanczos process for symmetric operators.
#include "core/numerics/lanczos.h"

#include <cmath>

namespace sosrep {

std::optional<LanczosBasis>
lanczos(const Matrix& a, const Vector& b, Eigen::Index maxSteps, int every,
        const std::function<bool(const SymmetricTridiagonal&)>& converged)
{
    const Eigen::Index n = a.rows();
    maxSteps = std::min(maxSteps, n);
    LanczosBasis out;
    out.norm = b.norm();
    if (!(out.norm > 0.0) || !std::isfinite(out.norm) || maxSteps < 1) {
        return std::nullopt;
    }
    Matrix q(n, maxSteps + 1);
    Vector alpha(maxSteps), beta(maxSteps);
    q.col(0) = b / out.norm;
    // Below this the next vector is rounding noise: the space is invariant.
    const double breakdown = 1e-13 * std::max(a.diagonal().cwiseAbs().maxCoeff(), 1e-300);
    for (Eigen::Index m = 1; m <= maxSteps; ++m) {
        Vector w = a * q.col(m - 1);
        alpha(m - 1) = q.col(m - 1).dot(w);
        const auto basis = q.leftCols(m);
        for (int pass = 0; pass < 2; ++pass) { // classical Gram-Schmidt, twice is enough
            w -= basis * (basis.transpose() * w);
        }
        beta(m - 1) = w.norm();
        const bool invariant = !(beta(m - 1) > breakdown);
        if (!invariant) {
            q.col(m) = w / beta(m - 1);
        }
        const bool check = invariant || m % every == 0 || m == maxSteps;
        if (!check) {
            continue;
        }
        SymmetricTridiagonal t{alpha.head(m), beta.head(m - 1)};
        if (invariant || converged(t)) {
            out.q = q.leftCols(m);
            out.t = std::move(t);
            out.invariant = invariant;
            return out;
        }
    }
    return std::nullopt;
}

} // namespace sosrep
