// SPDX-License-Identifier: MIT
// Seeded random matrices and vectors for tests.
#pragma once

#include "core/random.h"
#include "core/types.h"

namespace sosrep::test {

/// n x d standard normal entries from a seed (row by row).
inline Matrix normalMatrix(Eigen::Index n, Eigen::Index d, uint64_t seed)
{
    Rng rng(seed);
    Matrix x(n, d);
    for (Eigen::Index i = 0; i < n; ++i) {
        for (Eigen::Index j = 0; j < d; ++j) {
            x(i, j) = rng.normal();
        }
    }
    return x;
}

/// n standard normal entries from a seed.
inline Vector normalVector(Eigen::Index n, uint64_t seed)
{
    return normalMatrix(n, 1, seed).col(0);
}

} // namespace sosrep::test
