// SPDX-License-Identifier: MIT
// Distances shared by every length scale of a sweep, computed once.
#include "core/kernels/sweep_workspace.h"

#include "core/numerics/distances.h"
#include "core/numerics/kd_tree.h"
#include "core/numerics/row_blocks.h"

#include <algorithm>

namespace sosrep {
namespace {

bool sameRows(const MatrixRef& a, const Matrix& b)
{
    return a.rows() == b.rows() && a.cols() == b.cols() && a == b;
}

} // namespace

PackedSymmetric packedSquaredDistances(const MatrixRef& x, PackedSymmetric::Precision precision)
{
    PackedSymmetric d2(x.rows(), precision);
    forEachDistanceColumn(x, [&](Eigen::Index j, const double* column, Eigen::Index len) {
        if (precision == PackedSymmetric::Precision::Double) {
            std::copy(column, column + len, d2.columnDouble(j));
        } else {
            float* out = d2.columnSingle(j);
            for (Eigen::Index i = 0; i < len; ++i) {
                out[i] = static_cast<float>(column[i]);
            }
        }
    });
    return d2;
}

SweepWorkspace::SweepWorkspace(const MatrixRef& train, const MatrixRef& validation,
                               Precision precision, bool storeDistances)
    : m_train(train), m_validation(storeDistances ? Matrix(validation) : Matrix()),
      m_precision(precision), m_store(storeDistances)
{
}

bool SweepWorkspace::serves(const MatrixRef& train) const
{
    return m_store && sameRows(train, m_train);
}

const PackedSymmetric& SweepWorkspace::squaredDistances() const
{
    std::call_once(m_trainOnce,
                   [this] { m_squared = packedSquaredDistances(m_train, m_precision); });
    return m_squared;
}

const Matrix* SweepWorkspace::validationDistances(const MatrixRef& queries,
                                                  const MatrixRef& centres) const
{
    if (!m_store || m_validation.rows() == 0 || !sameRows(queries, m_validation) ||
        !sameRows(centres, m_train)) {
        return nullptr;
    }
    std::call_once(m_validationOnce, [this] {
        // Block by block as KernelOperator::evaluate computes them: the same bits.
        const Vector norms = m_train.rowwise().squaredNorm();
        m_validationSquared.resize(m_train.rows(), m_validation.rows());
        for (Eigen::Index b = 0; b < m_validation.rows(); b += kInvariantBlock) {
            const Eigen::Index rows = std::min(kInvariantBlock, m_validation.rows() - b);
            m_validationSquared.middleCols(b, rows) =
                centreQueryBlock(m_train, norms, m_validation, b, rows).leftCols(rows);
        }
    });
    return &m_validationSquared;
}

std::shared_ptr<const KdTree> SweepWorkspace::tree(const MatrixRef& train) const
{
    if (!sameRows(train, m_train)) {
        return nullptr;
    }
    std::call_once(m_treeOnce, [this] { m_tree = std::make_shared<const KdTree>(m_train); });
    return m_tree;
}

std::shared_ptr<const NystromGeometry>
SweepWorkspace::nystromGeometry(const MatrixRef& train, uint64_t seed, Eigen::Index rank,
                                const std::function<NystromGeometry()>& make) const
{
    if (!sameRows(train, m_train)) {
        return nullptr;
    }
    const std::lock_guard<std::mutex> lock(m_geometryMutex);
    if (!m_geometry || m_geometry->seed != seed || m_geometry->rank != rank) {
        m_geometry = std::make_shared<const NystromGeometry>(make());
    }
    return m_geometry;
}

double SweepWorkspace::distanceBytes(double trainRows, double validationRows, Precision precision)
{
    return PackedSymmetric::bytesFor(trainRows, precision) +
           trainRows * validationRows * sizeof(double);
}

} // namespace sosrep
