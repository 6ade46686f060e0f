// SPDX-License-Identifier: MIT
// Packed symmetric matrices in float or double from a reusable buffer pool.
#pragma once

#include "core/types.h"

#include <cstddef>
#include <memory>
#include <mutex>
#include <vector>

namespace sosrep {

/// Storage given back by finished kernel matrices for the next one of the same size to reuse.
/// A sweep builds one dense kernel per length scale; a fresh allocation of that size is mapped
/// afresh and every page is faulted in and cleared by the system (11 % of a default fit at
/// N = 7000 in `perf`), a reused one is not. Thread-safe.
class BufferPool
{
public:
    struct Free
    {
        void operator()(unsigned char* p) const;
    };
    struct Buffer
    {
        std::unique_ptr<unsigned char, Free> data;
        std::size_t bytes = 0;
    };
    /// A buffer of at least `bytes`: a returned one when one is large enough, else a new one
    /// (not zeroed, transparent huge pages advised). Always 64-byte aligned: the vectorized
    /// product's rounding depends on where its columns fall, so a fixed alignment makes it
    /// reproducible from run to run.
    Buffer take(std::size_t bytes);
    static Buffer allocate(std::size_t bytes);
    /// Keeps `buffer` for a later take(); at most kKept are kept, the smallest dropped.
    void give(Buffer buffer);

private:
    static constexpr std::size_t kKept = 2;
    std::mutex m_mutex;
    std::vector<Buffer> m_free;
};

/// A symmetric N x N matrix held as its lower triangle, column after column (column j holds
/// rows j..N-1, LAPACK's packed 'L' layout), in double or single precision: half the memory of a
/// full matrix, and a product reads every entry once for both of its positions.
///
/// Products accumulate in double whatever the storage: with single-precision entries the matrix
/// is a fixed, exactly symmetric K~ with |K~ - K| <= 2^-24 |K| entrywise, so an iterative solver
/// sees one consistent operator and converges as far as it would with K (it solves the problem
/// for K~; the sweep's use, see SweepWorkspace).
class PackedSymmetric
{
public:
    enum class Precision
    {
        Double,
        Single
    };

    PackedSymmetric() = default;
    /// Entries left unset; storage from `pool` when given (and returned to it on destruction).
    PackedSymmetric(Eigen::Index n, Precision precision,
                    const std::shared_ptr<BufferPool>& pool = nullptr);
    ~PackedSymmetric();
    PackedSymmetric(PackedSymmetric&& other) noexcept;
    PackedSymmetric& operator=(PackedSymmetric&& other) noexcept;
    PackedSymmetric(const PackedSymmetric&) = delete;
    PackedSymmetric& operator=(const PackedSymmetric&) = delete;

    /// The lower triangle of `m` (the upper one is not read).
    static PackedSymmetric fromLower(const MatrixRef& m, Precision precision);

    Eigen::Index size() const { return m_n; }
    bool empty() const { return m_n == 0; }
    Precision precision() const { return m_precision; }
    /// Bytes held for n rows.
    static double bytesFor(double n, Precision precision);

    /// Position of entry (j, j) in the packed array; column j's entries (j..N-1, j) follow it.
    static std::size_t offset(Eigen::Index j, Eigen::Index n)
    {
        const auto uj = static_cast<std::size_t>(j);
        // sum over k < j of (n - k); at j = 0 the product below is 0 despite the wrap of j - 1.
        return uj * static_cast<std::size_t>(n) - uj * (uj - 1) / 2;
    }
    /// Column j from the diagonal down, N - j entries (the storage's type must match).
    double* columnDouble(Eigen::Index j);
    float* columnSingle(Eigen::Index j);
    const double* columnDouble(Eigen::Index j) const;
    const float* columnSingle(Eigen::Index j) const;

    double operator()(Eigen::Index i, Eigen::Index j) const;
    double minCoeff() const;
    Matrix toDense() const;

    /// K x, accumulated in double. Columns are split into fixed panels of equal work, run in
    /// parallel into their own partial results and added in panel order, so the result does not
    /// depend on the number of threads.
    Vector multiply(const VectorRef& x) const;
    /// K X, each entry of K read once for all of X's columns (the same sums as multiply()).
    Matrix multiplyColumns(const MatrixRef& x) const;

private:
    void release();

    Eigen::Index m_n = 0;
    Precision m_precision = Precision::Double;
    BufferPool::Buffer m_buffer;
    std::weak_ptr<BufferPool> m_pool;
};

} // namespace sosrep
