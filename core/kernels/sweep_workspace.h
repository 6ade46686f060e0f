// SPDX-License-Identifier: MIT
// Distances shared by every length scale of a sweep, computed once.
#pragma once

#include "core/kernels/packed_symmetric.h"
#include "core/types.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

namespace sosrep {

class KdTree;

/// What a Nystroem kernel on a sweep's fitting rows shares across length scales: its landmarks
/// (drawn from the seed, the same for every l), the rows' distinct rows, and the squared
/// distances from those to the landmarks; each l's K_nm is then one elementwise exp of them.
struct NystromGeometry
{
    uint64_t seed = 0;
    Eigen::Index rank = 0;
    Matrix landmarks;                     // M x d
    std::vector<Eigen::Index> distinctOf; // each row's distinct row (empty: every row distinct)
    std::vector<Eigen::Index> copies;     // rows per distinct row (empty: 1 each)
    Matrix distances;                     // distinct rows x M, squaredDistancesZeroed's bits
};

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
    /// The Nystroem geometry of the fitting rows for `seed` and `rank`, made by `make` the first
    /// time it is asked for (then kept for the sweep's other length scales), when `train` are
    /// those rows; else null.
    std::shared_ptr<const NystromGeometry>
    nystromGeometry(const MatrixRef& train, uint64_t seed, Eigen::Index rank,
                    const std::function<NystromGeometry()>& make) const;

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
    mutable std::mutex m_geometryMutex;
    mutable std::shared_ptr<const NystromGeometry> m_geometry;
    mutable PackedSymmetric m_squared;
    mutable Matrix m_validationSquared;
};

/// Packed squared distances between the rows of x (squaredDistancesZeroed), stored at
/// `precision`.
PackedSymmetric packedSquaredDistances(const MatrixRef& x, PackedSymmetric::Precision precision);

} // namespace sosrep
