// SPDX-License-Identifier: MIT
// Rows processed in fixed, padded blocks so results do not depend on the batch.
#pragma once

#include "core/types.h"
#include "core/util/float_mode.h"
#include "core/util/parallel_failure.h"

#include <algorithm>

namespace sosrep {

/// Batch invariance: a row's value is a function of the row and the model only, the same bits
/// whatever other rows are evaluated with it (in one call, in chunks, on Dask partitions).
///
/// Eigen's products send a block's remainder rows and columns down other instruction paths than
/// its full packets (scalar tails without FMA, half packets, other unrolling), so when a call's
/// block boundaries fell elsewhere a row came out a few ulps different (1e-15 for KDE, 1e-12 for
/// kernel SoS; a Dask test failed on an AVX-512 machine). Here every block has the same width:
/// the last one is padded with copies of its first row, so every product has the same shape
/// and every row takes a full-packet path. Within a block, rows are SIMD lanes or broadcast
/// operands, and which one a row lands on does not change its arithmetic: tst_batch_invariance
/// moves a row through every position of a block and checks the bits, for every estimator.
///
/// fn(block, first, rows): `block` has exactly `width` rows, the first `rows` of which are
/// y.middleRows(first, rows); fn writes its results for those rows only. Blocks run in parallel.
constexpr Eigen::Index kInvariantBlock = 64;

/// y.middleRows(first, rows) padded to `width` rows with copies of row `first`, into `block`
/// (its storage reused when it has the size already).
inline void paddedRowsInto(const MatrixRef& y, Eigen::Index first, Eigen::Index rows,
                           Eigen::Index width, Matrix& block)
{
    block.resize(width, y.cols()); // no reallocation at the same size
    block.topRows(rows) = y.middleRows(first, rows);
    for (Eigen::Index i = rows; i < width; ++i) {
        block.row(i) = y.row(first);
    }
}

inline Matrix paddedRows(const MatrixRef& y, Eigen::Index first, Eigen::Index rows,
                         Eigen::Index width)
{
    Matrix block;
    paddedRowsInto(y, first, rows, width, block);
    return block;
}

template <class Fn> void forEachPaddedBlock(const MatrixRef& y, Eigen::Index width, Fn&& fn)
{
    const Eigen::Index q = y.rows();
    ParallelFailure failure;
#ifdef _OPENMP // the header is also read by code built without OpenMP (tests)
#pragma omp parallel
#endif
    {
        const FlushSubnormalsScope subnormalsFlushed;
#ifdef _OPENMP
#pragma omp for schedule(dynamic)
#endif
        for (Eigen::Index b = 0; b < q; b += width) {
            failure.run([&] {
                const Eigen::Index rows = std::min(width, q - b);
                fn(paddedRows(y, b, rows, width), b, rows);
            });
        }
    }
    failure.rethrow();
}

} // namespace sosrep
