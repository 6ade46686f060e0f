// SPDX-License-Identifier: MIT
// Distances shared by every length scale of a sweep, computed once.
#pragma once

#include "core/kernels/packed_symmetric.h"
#include "core/types.h"

#include <memory>
#include <mutex>

namespace sosrep {

class KdTree;

/// What the fits of one length-scale sweep on the same fitting and validation rows share
/// (issue 25). They differ only in l, and every entry of a radial kernel is a function of its
/// pair's distance, so distances are computed once, the first time they are asked for: those
/// among the fitting rows (packed) for each grid point's kernel matrix, and those from the
/// validation rows to the fitting rows for each grid point's Fisher-divergence terms. The
/// storage of a finished point's kernel goes back to the pool for the next one.
///
/// Precision Single (the default, option fd_precision) holds the kernels and the distances
/// among fitting rows in single precision: the sweep only compares Fisher-divergence values
/// across grid points, a rounding of 2^-24 per kernel entry moves them far less than the
/// grid's differences do (tst_sweep_workspace measures it), and it halves the memory and
/// the traffic of every product. The validation distances stay in double, so the terms are
/// those of the fitted weights exactly. The final fit at the chosen l is built in double,
/// without a workspace.
class SweepWorkspace
{
public:
    using Precision = PackedSymmetric::Precision;

    /// `storeDistances` false keeps only the recycled storage and the precision (a sweep over
    /// folds too large to hold all their distances).
    SweepWorkspace(const MatrixRef& train, const MatrixRef& validation, Precision precision,
                   bool storeDistances = true);

    Precision precision() const { return m_precision; }
    /// Whether the stored distances are those of `train` (compared by value).
    bool serves(const MatrixRef& train) const;
    /// The fitting rows' squared distances, packed, at precision() (computed on first use).
    const PackedSymmetric& squaredDistances() const;
    /// Squared distances from the validation rows to the fitting rows, one column per
    /// validation row (fitting rows x validation rows, double), when `queries` are the
    /// validation rows and `centres` the fitting rows; else null.
    const Matrix* validationDistances(const MatrixRef& queries, const MatrixRef& centres) const;
    const std::shared_ptr<BufferPool>& pool() const { return m_pool; }
    /// A k-d tree of the fitting rows, built on first use and shared by every length scale's
    /// sparse kernel and its evaluations, when `train` are those rows (compared by value); else
    /// null.
    std::shared_ptr<const KdTree> tree(const MatrixRef& train) const;

    /// Bytes the stored distances of a fold take.
    static double distanceBytes(double trainRows, double validationRows, Precision precision);
    /// Total bytes of stored distances a sweep allows over all its folds (2 GB: 5 folds of
    /// 11 000 rows); beyond, folds compute their distances afresh at each grid point.
    static constexpr double kMaxDistanceBytes = 2e9;

private:
    Matrix m_train; // always kept (N x d): the tree is built on it
    Matrix m_validation;
    Precision m_precision;
    bool m_store = true;
    std::shared_ptr<BufferPool> m_pool = std::make_shared<BufferPool>();
    mutable std::once_flag m_trainOnce;
    mutable std::once_flag m_validationOnce;
    mutable std::once_flag m_treeOnce;
    mutable std::shared_ptr<const KdTree> m_tree;
    mutable PackedSymmetric m_squared;
    mutable Matrix m_validationSquared;
};

/// Packed squared distances between the rows of x (squaredDistancesZeroed), stored at
/// `precision`.
PackedSymmetric packedSquaredDistances(const MatrixRef& x, PackedSymmetric::Precision precision);

} // namespace sosrep
