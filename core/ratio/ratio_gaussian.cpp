// SPDX-License-Identifier: MIT
// FIRE's Gaussian kernel g_t and its Gram blocks for the ratio estimators.
#include "core/ratio/ratio_gaussian.h"

#include "core/numerics/distances.h"
#include "core/numerics/flushed_exp.h"
#include "core/numerics/row_blocks.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace sosrep {

Matrix gaussianGram(const MatrixRef& a, const MatrixRef& b, double t)
{
    return flushedExp(squaredDistances(a, b) * (-0.5 / t));
}

Vector gaussianExpansion(const MatrixRef& y, const MatrixRef& centres, const Vector& a, double t)
{
    // Full-width blocks (row_blocks.h): a row's value does not depend on the batch.
    Vector out(y.rows());
    forEachPaddedBlock(
        y, kInvariantBlock, [&](const Matrix& block, Eigen::Index first, Eigen::Index rows) {
            out.segment(first, rows) = (gaussianGram(block, centres, t) * a).head(rows);
        });
    return out;
}

Vector gaussianRowMeans(const MatrixRef& y, const MatrixRef& sample, double t)
{
    // Full-width blocks of y (row_blocks.h): a row's mean does not depend on the batch.
    Vector out(y.rows());
    forEachPaddedBlock(y, kInvariantBlock,
                       [&](const Matrix& yb, Eigen::Index first, Eigen::Index rows) {
                           Vector sum = Vector::Zero(yb.rows());
                           const Eigen::Index block = 2048;
                           for (Eigen::Index s = 0; s < sample.rows(); s += block) {
                               const Eigen::Index n = std::min(block, sample.rows() - s);
                               sum += gaussianGram(yb, sample.middleRows(s, n), t).rowwise().sum();
                           }
                           out.segment(first, rows) = sum.head(rows);
                       });
    return out / static_cast<double>(sample.rows());
}

double deltaNormalizer(double t, double dim)
{
    return std::pow(2.0 * 3.14159265358979323846 * t, -0.5 * dim);
}

double meanNeighbourDistance(const MatrixRef& x, int neighbours)
{
    const Eigen::Index n = x.rows();
    const int k = static_cast<int>(std::min<Eigen::Index>(neighbours, n - 1));
    if (k < 1) {
        return 0.0;
    }
    // Blocks of rows keep the distance matrix small for large samples.
    const Eigen::Index block = 512;
    double total = 0.0;
    std::vector<double> row(static_cast<size_t>(n));
    for (Eigen::Index start = 0; start < n; start += block) {
        const Eigen::Index rows = std::min(block, n - start);
        const Matrix d2 = squaredDistances(x.middleRows(start, rows), x);
        for (Eigen::Index i = 0; i < rows; ++i) {
            for (Eigen::Index j = 0; j < n; ++j) {
                row[size_t(j)] = d2(i, j);
            }
            row[size_t(start + i)] = std::numeric_limits<double>::infinity();
            std::nth_element(row.begin(), row.begin() + (k - 1), row.end());
            std::sort(row.begin(), row.begin() + k);
            for (int j = 0; j < k; ++j) {
                total += std::sqrt(row[size_t(j)]);
            }
        }
    }
    return total / (static_cast<double>(n) * k);
}

} // namespace sosrep
