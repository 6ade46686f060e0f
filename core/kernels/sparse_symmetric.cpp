// SPDX-License-Identifier: MIT
// A symmetric kernel matrix without its negligible entries, row by row.
#include "core/kernels/sparse_symmetric.h"

#include "core/errors.h"
#include "core/numerics/flushed_exp.h"
#include "core/numerics/kd_tree.h"
#include "core/util/float_mode.h"
#include "core/util/limits.h"
#include "core/util/parallel_failure.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace sosrep {

SparseSymmetric SparseSymmetric::build(const KdTree& tree, double r2, const RadialProfile& profile,
                                       Precision precision, double maxEntries)
{
    SparseSymmetric s;
    s.m_n = tree.size();
    s.m_precision = precision;
    const std::vector<int> leaves = tree.leaves();
    s.m_blocks.resize(leaves.size());
    if (maxEntries > 0.0) {
        // A kernel asked to be sparse at a length scale where it is not (all of shuttle at
        // l = 0.02: 16 GB resident before the size check after the fact) is refused from a
        // count of its pairs, which costs the search without the exponentials.
        std::vector<long long> counts(leaves.size(), 0);
        ParallelFailure failure;
#pragma omp parallel
        {
            const FlushSubnormalsScope subnormalsFlushed;
#pragma omp for schedule(dynamic, 4)
            for (std::size_t b = 0; b < leaves.size(); ++b) {
                failure.run([&] {
                    long long count = 0;
                    tree.forEachPairWithin(
                        leaves[b], r2, [&count](Eigen::Index, Eigen::Index, double) { ++count; });
                    counts[b] = count;
                });
            }
        }
        failure.rethrow();
        long long total = 0;
        for (const long long c : counts) {
            total += c;
        }
        const double perEntry = double(sizeof(std::int32_t)) +
                                (precision == Precision::Double ? sizeof(double) : sizeof(float));
        if (double(total) > maxEntries) {
            throw ParameterError("backend", "sparse: the kernel has " + std::to_string(total) +
                                                " entries within the truncation radius, " +
                                                formatBytes(double(total) * perEntry) + " (limit " +
                                                formatBytes(maxEntries * perEntry) +
                                                "): give a smaller length scale, or the auto "
                                                "or low-rank back-end");
        }
        for (std::size_t b = 0; b < leaves.size(); ++b) {
            const auto count = static_cast<std::size_t>(counts[b]);
            s.m_blocks[b].columns.reserve(count);
            if (precision == Precision::Double) {
                s.m_blocks[b].valuesDouble.reserve(count);
            } else {
                s.m_blocks[b].valuesSingle.reserve(count);
            }
        }
    }
    ParallelFailure failure;
#pragma omp parallel
    {
        const FlushSubnormalsScope subnormalsFlushed;
#pragma omp for schedule(dynamic, 4)
        for (std::size_t b = 0; b < leaves.size(); ++b) {
            failure.run([&] {
                Block& block = s.m_blocks[b];
                std::int64_t current = -1;
                tree.forEachPairWithin(
                    leaves[b], r2, [&](Eigen::Index i, Eigen::Index j, double d2) {
                        if (i != current) { // the pairs come row after row
                            current = i;
                            block.rows.push_back(static_cast<std::int32_t>(i));
                            block.start.push_back(static_cast<std::int64_t>(block.columns.size()));
                        }
                        block.columns.push_back(static_cast<std::int32_t>(j));
                        // libm's exp of the pair's own distance: the same bits from either end.
                        const double v =
                            flushedExp(profile.scale * (profile.gaussian ? d2 : std::sqrt(d2)));
                        if (precision == Precision::Double) {
                            block.valuesDouble.push_back(v);
                        } else {
                            const auto f = static_cast<float>(v);
                            block.valuesSingle.push_back(
                                f < std::numeric_limits<float>::min() ? 0.0f : f);
                        }
                    });
                block.start.push_back(static_cast<std::int64_t>(block.columns.size()));
                block.columns.shrink_to_fit();
                block.valuesDouble.shrink_to_fit();
                block.valuesSingle.shrink_to_fit();
            });
        }
    }
    failure.rethrow();
    s.m_blockOf.assign(static_cast<size_t>(s.m_n), 0);
    s.m_placeIn.assign(static_cast<size_t>(s.m_n), 0);
    for (std::size_t b = 0; b < s.m_blocks.size(); ++b) {
        const Block& block = s.m_blocks[b];
        s.m_nonZeros += static_cast<long long>(block.columns.size());
        for (std::size_t r = 0; r < block.rows.size(); ++r) {
            s.m_blockOf[static_cast<size_t>(block.rows[r])] = static_cast<std::int32_t>(b);
            s.m_placeIn[static_cast<size_t>(block.rows[r])] = static_cast<std::int32_t>(r);
        }
    }
    return s;
}

double SparseSymmetric::bytes() const
{
    double total = 0.0;
    for (const Block& b : m_blocks) {
        total += double(b.rows.size()) * sizeof(std::int32_t) +
                 double(b.start.size()) * sizeof(std::int64_t) +
                 double(b.columns.size()) * sizeof(std::int32_t) +
                 double(b.valuesDouble.size()) * sizeof(double) +
                 double(b.valuesSingle.size()) * sizeof(float);
    }
    return total + 2.0 * double(m_n) * sizeof(std::int32_t);
}

double SparseSymmetric::operator()(Eigen::Index i, Eigen::Index j) const
{
    const Block& b = m_blocks[static_cast<size_t>(m_blockOf[static_cast<size_t>(i)])];
    const auto r = static_cast<size_t>(m_placeIn[static_cast<size_t>(i)]);
    for (auto k = b.start[r]; k < b.start[r + 1]; ++k) {
        if (b.columns[size_t(k)] == j) {
            return m_precision == Precision::Double ? b.valuesDouble[size_t(k)]
                                                    : double(b.valuesSingle[size_t(k)]);
        }
    }
    return 0.0;
}

Matrix SparseSymmetric::toDense() const
{
    Matrix m = Matrix::Zero(m_n, m_n);
    for (const Block& b : m_blocks) {
        for (size_t r = 0; r < b.rows.size(); ++r) {
            for (auto k = b.start[r]; k < b.start[r + 1]; ++k) {
                m(b.rows[r], b.columns[size_t(k)]) = m_precision == Precision::Double
                                                         ? b.valuesDouble[size_t(k)]
                                                         : double(b.valuesSingle[size_t(k)]);
            }
        }
    }
    return m;
}

template <typename T>
void SparseSymmetric::productOf(const Block& b, const std::vector<T>& values, const Matrix& x,
                                Matrix& y)
{
    for (size_t r = 0; r < b.rows.size(); ++r) {
        const std::int64_t begin = b.start[r];
        const std::int64_t end = b.start[r + 1];
        for (Eigen::Index c = 0; c < x.cols(); ++c) {
            const double* xc = x.col(c).data();
            // Four accumulators in a fixed order: the sum does not depend on the thread.
            double acc[4] = {0, 0, 0, 0};
            std::int64_t k = begin;
            for (; k + 4 <= end; k += 4) {
                for (int l = 0; l < 4; ++l) {
                    acc[l] +=
                        static_cast<double>(values[size_t(k + l)]) * xc[b.columns[size_t(k + l)]];
                }
            }
            double tail = 0.0;
            for (; k < end; ++k) {
                tail += static_cast<double>(values[size_t(k)]) * xc[b.columns[size_t(k)]];
            }
            y(b.rows[r], c) = tail + ((acc[0] + acc[1]) + (acc[2] + acc[3]));
        }
    }
}

Vector SparseSymmetric::multiply(const VectorRef& x) const
{
    return multiplyColumns(x);
}

Matrix SparseSymmetric::multiplyColumns(const MatrixRef& x) const
{
    const Matrix xc = x; // contiguous columns
    Matrix y(m_n, x.cols());
    const auto blocks = static_cast<std::ptrdiff_t>(m_blocks.size());
    ParallelFailure failure;
#pragma omp parallel
    {
        const FlushSubnormalsScope subnormalsFlushed;
#pragma omp for schedule(dynamic, 16)
        for (std::ptrdiff_t b = 0; b < blocks; ++b) {
            failure.run([&] {
                const Block& block = m_blocks[static_cast<size_t>(b)];
                if (m_precision == Precision::Double) {
                    productOf(block, block.valuesDouble, xc, y);
                } else {
                    productOf(block, block.valuesSingle, xc, y);
                }
            });
        }
    }
    failure.rethrow();
    return y;
}

} // namespace sosrep
