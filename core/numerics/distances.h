// SPDX-License-Identifier: MIT
// Squared distances between row blocks, with round-off below zero clamped.
#pragma once

#include "core/types.h"
#include "core/util/float_mode.h"
#include "core/util/parallel_failure.h"

#include <algorithm>

namespace sosrep {

/// Squared Euclidean distances between the rows of a and the rows of b (a.rows() x b.rows()),
/// by |a|^2 + |b|^2 - 2 a b^T with the round-off below zero clamped to 0.
Matrix squaredDistances(const MatrixRef& a, const MatrixRef& b);
/// The same into `d2`, reusing its storage (see squaredDistancesZeroedInto).
void squaredDistancesInto(const MatrixRef& a, const MatrixRef& b, Matrix& d2);

/// The same with the squared row norms of b given, and every value below the round-off of
/// |a|^2 + |b|^2 set to exactly 0: where the true value is 0 the formula leaves ~1e-16 (|a|^2 +
/// |b|^2), which for a kernel with a cusp (Laplace, SDO) would move k(x, x) by ~1e-8.
Matrix squaredDistancesZeroed(const MatrixRef& a, const MatrixRef& b, const Vector& bNorms);
/// The same with both sides' squared row norms given.
Matrix squaredDistancesZeroed(const MatrixRef& a, const Vector& aNorms, const MatrixRef& b,
                              const Vector& bNorms);
/// The same into `d2`, whose storage is reused when it has the size already: a loop over blocks
/// that keeps one per thread allocates nothing per block. Large blocks freed and allocated again
/// cost page faults on every use wherever the allocator maps them afresh (glibc's default above
/// its adaptive threshold: a 50 000-row KDE fit from Python took 271 s instead of 29 s).
void squaredDistancesZeroedInto(const MatrixRef& a, const Vector& aNorms, const MatrixRef& b,
                                const Vector& bNorms, Matrix& d2);

/// Squared distances (zeroed as above) from every centre (rows) to the queries y.middleRows(
/// first, rows) (columns), computed as one padded block of kInvariantBlock queries: a query's
/// column is the same bits whatever the batch it came in (row_blocks.h). centres x
/// kInvariantBlock: the first `rows` columns are the queries', the rest padding.
Matrix centreQueryBlock(const MatrixRef& centres, const Vector& centreNorms, const MatrixRef& y,
                        Eigen::Index first, Eigen::Index rows);
/// The same into reused storage: `padded` gets the padded queries, `d2` the distances.
void centreQueryBlockInto(const MatrixRef& centres, const Vector& centreNorms, const MatrixRef& y,
                          Eigen::Index first, Eigen::Index rows, Matrix& padded, Matrix& d2);

/// Calls f(j, d2, len) for every column j of the lower triangle of the rows' squared-distance
/// matrix (squaredDistancesZeroed), d2 pointing at the len = n - j distances of rows j..n-1 to
/// row j. Panels of 256 columns run in parallel, so f must be safe to call concurrently for
/// different j.
template <typename F> void forEachDistanceColumn(const MatrixRef& x, F f)
{
    constexpr Eigen::Index kPanel = 256;
    const Eigen::Index n = x.rows();
    const Vector norms = x.rowwise().squaredNorm();
    ParallelFailure failure;
#pragma omp parallel
    {
        const FlushSubnormalsScope subnormalsFlushed;
#pragma omp for schedule(dynamic, 1)
        for (Eigen::Index c = 0; c < n; c += kPanel) {
            failure.run([&] {
                const Eigen::Index w = std::min(kPanel, n - c);
                const Matrix d2 = squaredDistancesZeroed(x.middleRows(c, n - c), x.middleRows(c, w),
                                                         norms.segment(c, w));
                for (Eigen::Index jj = 0; jj < w; ++jj) {
                    f(c + jj, d2.col(jj).data() + jj, n - c - jj);
                }
            });
        }
    }
    failure.rethrow();
}

} // namespace sosrep
