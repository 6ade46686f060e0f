// SPDX-License-Identifier: MIT
// Packed symmetric matrices in float or double from a reusable buffer pool.
#include "core/kernels/packed_symmetric.h"

#include "core/util/float_mode.h"
#include "core/util/huge_pages.h"
#include "core/util/parallel_failure.h"

#include <algorithm>
#include <cstdlib>
#include <new>
#include <stdexcept>
#include <vector>

namespace sosrep {
namespace {

/// Panels a product's columns are split into: a few per thread, so dynamic scheduling evens
/// out the machine's noise, and few enough that adding the partial results stays cheap
/// (measured at N = 5600 and 7000: 8 panels 5-25 % faster than 2 or 32).
constexpr int kPanels = 8;

/// One column's share of y = K x: y(j+1..) += c(1..) x_j and the dot product c(1..) . x(j+1..),
/// in one pass over c (`len` entries after the diagonal). Eight double accumulators: the loop
/// vectorizes (conversion from single precision included) and the sum's order is fixed.
template <typename T>
double columnUpdate(const T* c, std::size_t len, const double* x, double* y, double xj)
{
    double acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    std::size_t i = 0;
    for (; i + 8 <= len; i += 8) {
        for (int l = 0; l < 8; ++l) {
            const double a = static_cast<double>(c[i + l]);
            acc[l] += a * x[i + l];
            y[i + l] += a * xj;
        }
    }
    double tail = 0.0;
    for (; i < len; ++i) {
        const double a = static_cast<double>(c[i]);
        tail += a * x[i];
        y[i] += a * xj;
    }
    return tail + ((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7]));
}

/// Column boundaries of `panels` panels holding equal numbers of entries.
std::vector<Eigen::Index> panelBounds(Eigen::Index n, int panels)
{
    std::vector<Eigen::Index> bounds(static_cast<std::size_t>(panels) + 1, n);
    bounds[0] = 0;
    const double total = 0.5 * double(n) * double(n + 1);
    for (int p = 1; p < panels; ++p) {
        const double target = total * p / panels;
        Eigen::Index lo = 0, hi = n;
        while (lo < hi) {
            const Eigen::Index mid = (lo + hi) / 2;
            if (double(PackedSymmetric::offset(mid, n)) < target) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        bounds[static_cast<std::size_t>(p)] = lo;
    }
    return bounds;
}

/// Right-hand sides from which a product goes through dense tiles and Eigen's blocked GEMM:
/// unpacking a tile costs about one pass over it, which GEMM's register blocking repays once a
/// few columns share it (the negativity runner multiplies 40 at a time; one column at a time it
/// took 15x longer under AddressSanitizer than the dense matrix it replaced).
constexpr Eigen::Index kTiledFromColumns = 4;

/// Columns of K per dense tile: (n - j0) x kTileWidth doubles per thread.
constexpr Eigen::Index kTileWidth = 128;

/// Scratch memory a thread keeps between products, so that the products of a fit (thousands
/// in the negativity runner) allocate nothing after the first: AddressSanitizer maps and unmaps
/// every large block, and fresh blocks per product made page faults a third of that runner's
/// time under it. Blocks above kKeptScratchBytes are given back after each product.
class Scratch
{
public:
    double* get(std::size_t doubles)
    {
        if (m_data.size() < doubles) {
            m_data.assign(doubles, 0.0);
        }
        return m_data.data();
    }
    void trim()
    {
        if (m_data.size() * sizeof(double) > kKeptScratchBytes) {
            std::vector<double>().swap(m_data);
        }
    }

private:
    static constexpr std::size_t kKeptScratchBytes = std::size_t(64) << 20;
    std::vector<double> m_data;
};

/// Frees a thread's scratch on leaving a scope if it is too large to keep.
class ScratchTrim
{
public:
    explicit ScratchTrim(Scratch& s) : m_s(s) {}
    ~ScratchTrim() { m_s.trim(); }
    ScratchTrim(const ScratchTrim&) = delete;
    ScratchTrim& operator=(const ScratchTrim&) = delete;

private:
    Scratch& m_s;
};

thread_local Scratch t_tiles;    // one dense tile, on every thread of a product's team
thread_local Scratch t_partials; // the panels' partial results, on the product's caller

/// K X through dense tiles K(j0:n, j0:j1) of one panel's columns: y(j0:n) += T x(j0:j1) and
/// y(j0:j1) += T(below the block)^T x(j1:n). The diagonal block is filled symmetrically.
template <typename T>
void tiledPanel(const T* k, Eigen::Index n, Eigen::Index begin, Eigen::Index end, const Matrix& x,
                Eigen::Ref<Matrix> y)
{
    double* buffer = t_tiles.get(static_cast<std::size_t>((n - begin) * kTileWidth));
    for (Eigen::Index j0 = begin; j0 < end; j0 += kTileWidth) {
        const Eigen::Index w = std::min(kTileWidth, end - j0);
        const Eigen::Index h = n - j0;
        Eigen::Map<Matrix> tile(buffer, h, w);
        for (Eigen::Index c = 0; c < w; ++c) {
            const T* col = k + PackedSymmetric::offset(j0 + c, n);
            double* out = tile.col(c).data();
            for (Eigen::Index i = c; i < h; ++i) {
                out[i] = static_cast<double>(col[i - c]);
            }
            for (Eigen::Index i = 0; i < c; ++i) {
                out[i] = tile(c, i);
            }
        }
        y.middleRows(j0, h).noalias() += tile * x.middleRows(j0, w);
        if (h > w) {
            y.middleRows(j0, w).noalias() +=
                tile.bottomRows(h - w).transpose() * x.middleRows(j0 + w, h - w);
        }
    }
}

/// K X for every column of X: each column of K is read once for all of X's columns (it stays
/// in cache between them), so m right-hand sides cost one pass over K, not m.
template <typename T> Matrix packedProduct(const T* k, Eigen::Index n, const MatrixRef& x)
{
    const std::vector<Eigen::Index> bounds = panelBounds(n, kPanels);
    const Matrix xc = x; // contiguous columns
    const Eigen::Index m = xc.cols();
    const std::size_t panelSize = static_cast<std::size_t>(n * m);
    const ScratchTrim trimPartials(t_partials);
    double* partials = t_partials.get(panelSize * kPanels);
    ParallelFailure failure;
#pragma omp parallel
    {
        const FlushSubnormalsScope subnormalsFlushed;
        const ScratchTrim trimTiles(t_tiles);
#pragma omp for schedule(dynamic, 1)
        for (int p = 0; p < kPanels; ++p) {
            failure.run([&] {
                Eigen::Map<Matrix> y(partials + panelSize * static_cast<std::size_t>(p), n, m);
                y.setZero();
                if (m >= kTiledFromColumns) {
                    tiledPanel(k, n, bounds[static_cast<std::size_t>(p)],
                               bounds[static_cast<std::size_t>(p) + 1], xc, y);
                    return;
                }
                for (Eigen::Index j = bounds[static_cast<std::size_t>(p)];
                     j < bounds[static_cast<std::size_t>(p) + 1]; ++j) {
                    const T* c = k + PackedSymmetric::offset(j, n);
                    for (Eigen::Index r = 0; r < m; ++r) {
                        const double dot = columnUpdate(c + 1, static_cast<std::size_t>(n - j - 1),
                                                        xc.col(r).data() + j + 1,
                                                        y.col(r).data() + j + 1, xc(j, r));
                        y(j, r) += static_cast<double>(c[0]) * xc(j, r) + dot;
                    }
                }
            });
        }
    }
    failure.rethrow();
    Matrix sum = Matrix::Zero(n, m);
    for (int p = 0; p < kPanels; ++p) {
        sum += Eigen::Map<Matrix>(partials + panelSize * static_cast<std::size_t>(p), n, m);
    }
    return sum;
}

} // namespace

BufferPool::Buffer BufferPool::take(std::size_t bytes)
{
    {
        const std::lock_guard<std::mutex> lock(m_mutex);
        auto it = std::find_if(m_free.begin(), m_free.end(),
                               [bytes](const Buffer& b) { return b.bytes >= bytes; });
        if (it != m_free.end()) {
            Buffer b = std::move(*it);
            m_free.erase(it);
            return b;
        }
    }
    return allocate(bytes);
}

void BufferPool::Free::operator()(unsigned char* p) const
{
    std::free(p);
}

BufferPool::Buffer BufferPool::allocate(std::size_t bytes)
{
    constexpr std::size_t kAlign = 64;
    const std::size_t rounded =
        std::max<std::size_t>(kAlign, (bytes + kAlign - 1) / kAlign * kAlign);
    Buffer b;
    // Not initialized: no page is touched until the kernel is written.
    b.data.reset(static_cast<unsigned char*>(std::aligned_alloc(kAlign, rounded)));
    if (!b.data) {
        throw std::bad_alloc();
    }
    b.bytes = bytes;
    adviseHugePages(b.data.get(), bytes);
    return b;
}

void BufferPool::give(Buffer buffer)
{
    if (!buffer.data) {
        return;
    }
    const std::lock_guard<std::mutex> lock(m_mutex);
    m_free.push_back(std::move(buffer));
    if (m_free.size() > kKept) {
        auto smallest =
            std::min_element(m_free.begin(), m_free.end(),
                             [](const Buffer& a, const Buffer& b) { return a.bytes < b.bytes; });
        m_free.erase(smallest);
    }
}

double PackedSymmetric::bytesFor(double n, Precision precision)
{
    return 0.5 * n * (n + 1) * (precision == Precision::Double ? sizeof(double) : sizeof(float));
}

PackedSymmetric::PackedSymmetric(Eigen::Index n, Precision precision,
                                 const std::shared_ptr<BufferPool>& pool)
    : m_n(n), m_precision(precision), m_pool(pool)
{
    const auto bytes = static_cast<std::size_t>(bytesFor(double(n), precision));
    m_buffer = pool ? pool->take(bytes) : BufferPool::allocate(bytes);
}

PackedSymmetric::~PackedSymmetric()
{
    release();
}

PackedSymmetric::PackedSymmetric(PackedSymmetric&& other) noexcept
    : m_n(other.m_n), m_precision(other.m_precision), m_buffer(std::move(other.m_buffer)),
      m_pool(std::move(other.m_pool))
{
    other.m_n = 0;
}

PackedSymmetric& PackedSymmetric::operator=(PackedSymmetric&& other) noexcept
{
    if (this != &other) {
        release();
        m_n = other.m_n;
        m_precision = other.m_precision;
        m_buffer = std::move(other.m_buffer);
        m_pool = std::move(other.m_pool);
        other.m_n = 0;
    }
    return *this;
}

void PackedSymmetric::release()
{
    if (auto pool = m_pool.lock()) {
        pool->give(std::move(m_buffer));
    }
    m_buffer = {};
    m_n = 0;
}

PackedSymmetric PackedSymmetric::fromLower(const MatrixRef& m, Precision precision)
{
    const Eigen::Index n = m.rows();
    PackedSymmetric p(n, precision);
    for (Eigen::Index j = 0; j < n; ++j) {
        for (Eigen::Index i = j; i < n; ++i) {
            if (precision == Precision::Double) {
                p.columnDouble(j)[i - j] = m(i, j);
            } else {
                p.columnSingle(j)[i - j] = static_cast<float>(m(i, j));
            }
        }
    }
    return p;
}

double* PackedSymmetric::columnDouble(Eigen::Index j)
{
    if (m_precision != Precision::Double) {
        throw std::logic_error("PackedSymmetric: single-precision storage read as double");
    }
    return reinterpret_cast<double*>(m_buffer.data.get()) + offset(j, m_n);
}

float* PackedSymmetric::columnSingle(Eigen::Index j)
{
    if (m_precision != Precision::Single) {
        throw std::logic_error("PackedSymmetric: double-precision storage read as single");
    }
    return reinterpret_cast<float*>(m_buffer.data.get()) + offset(j, m_n);
}

const double* PackedSymmetric::columnDouble(Eigen::Index j) const
{
    return const_cast<PackedSymmetric*>(this)->columnDouble(j);
}

const float* PackedSymmetric::columnSingle(Eigen::Index j) const
{
    return const_cast<PackedSymmetric*>(this)->columnSingle(j);
}

double PackedSymmetric::operator()(Eigen::Index i, Eigen::Index j) const
{
    if (i < j) {
        std::swap(i, j);
    }
    return m_precision == Precision::Double ? columnDouble(j)[i - j]
                                            : static_cast<double>(columnSingle(j)[i - j]);
}

double PackedSymmetric::minCoeff() const
{
    if (m_n == 0) {
        return 0.0;
    }
    const std::size_t count = offset(m_n, m_n);
    if (m_precision == Precision::Double) {
        const double* d = reinterpret_cast<const double*>(m_buffer.data.get());
        return *std::min_element(d, d + count);
    }
    const float* f = reinterpret_cast<const float*>(m_buffer.data.get());
    return static_cast<double>(*std::min_element(f, f + count));
}

Matrix PackedSymmetric::toDense() const
{
    Matrix m(m_n, m_n);
    for (Eigen::Index j = 0; j < m_n; ++j) {
        for (Eigen::Index i = j; i < m_n; ++i) {
            m(i, j) = m(j, i) = (*this)(i, j);
        }
    }
    return m;
}

Vector PackedSymmetric::multiply(const VectorRef& x) const
{
    return multiplyColumns(x);
}

Matrix PackedSymmetric::multiplyColumns(const MatrixRef& x) const
{
    if (m_n == 0) {
        return Matrix(0, x.cols());
    }
    if (m_precision == Precision::Double) {
        return packedProduct(reinterpret_cast<const double*>(m_buffer.data.get()), m_n, x);
    }
    return packedProduct(reinterpret_cast<const float*>(m_buffer.data.get()), m_n, x);
}

} // namespace sosrep
