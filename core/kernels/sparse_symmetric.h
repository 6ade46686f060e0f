// SPDX-License-Identifier: MIT
// A symmetric kernel matrix without its negligible entries, row by row.
#pragma once

#include "core/types.h"

#include <cstdint>
#include <vector>

namespace sosrep {

class KdTree;

/// A unit-diagonal radial kernel of squared distance d2: exp(scale * d2) (Gaussian, scale =
/// -1/2l^2) or exp(scale * sqrt(d2)) (Laplace, scale = -1/l).
struct RadialProfile
{
    bool gaussian = true;
    double scale = -0.5;
};

/// A symmetric N x N matrix holding only the entries of each row within a radius: the kernel
/// of a small length scale, where most entries are below 1e-16 of the unit diagonal (issue 48).
/// Rows are stored whole (both triangles), in compressed sparse rows grouped by the k-d tree's
/// leaves: one block of rows per leaf, built by one task that found the leaf's neighbouring
/// leaves once. A product is one pass over each row in a fixed order, so its result does not
/// depend on the number of threads, and costs O(nnz) instead of O(N^2). Values are double or
/// single precision; products accumulate in double (as PackedSymmetric).
class SparseSymmetric
{
public:
    enum class Precision
    {
        Double,
        Single
    };

    SparseSymmetric() = default;

    /// Entry (i, j) = the profile at d2 for every pair of rows of `tree` within squared distance
    /// r2. Each value is libm's exp of the pair's distance, the same bits from either end, so K
    /// is exactly symmetric and its diagonal exactly 1; below the smallest normal number of
    /// the precision an entry is exactly 0 (issue 48). With `maxEntries` > 0 the pairs are
    /// counted first, and more than that many refused (ParameterError "backend") before any
    /// is stored; the blocks are then allocated at their exact sizes.
    static SparseSymmetric build(const KdTree& tree, double r2, const RadialProfile& profile,
                                 Precision precision, double maxEntries = 0.0);

    Eigen::Index size() const { return m_n; }
    /// Stored entries (both triangles, the diagonal once).
    long long nonZeros() const { return m_nonZeros; }
    Precision precision() const { return m_precision; }
    /// Bytes held.
    double bytes() const;

    double operator()(Eigen::Index i, Eigen::Index j) const;
    Matrix toDense() const;

    /// K x, accumulated in double, blocks of rows in parallel.
    Vector multiply(const VectorRef& x) const;
    /// K X for every column of X (each row of K read once for all of X's columns).
    Matrix multiplyColumns(const MatrixRef& x) const;

private:
    /// One leaf's rows: their original indices, where each one's entries start, the entries.
    struct Block
    {
        std::vector<std::int32_t> rows;
        std::vector<std::int64_t> start; // rows + 1
        std::vector<std::int32_t> columns;
        std::vector<double> valuesDouble;
        std::vector<float> valuesSingle;
    };
    template <typename T>
    static void productOf(const Block& b, const std::vector<T>& values, const Matrix& x, Matrix& y);

    Eigen::Index m_n = 0;
    long long m_nonZeros = 0;
    Precision m_precision = Precision::Double;
    std::vector<Block> m_blocks;
    std::vector<std::int32_t> m_blockOf; // each row's block and place in it
    std::vector<std::int32_t> m_placeIn;
};

} // namespace sosrep
