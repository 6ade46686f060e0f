// SPDX-License-Identifier: MIT
// The dense kernel matrix of KernelOperator: built column by column into packed storage, from
// fresh distances or from a sweep's stored ones (issue 25).
#include "core/kernels/kernel_operator.h"

#include "core/kernels/sweep_workspace.h"
#include "core/numerics/distances.h"
#include "core/numerics/flushed_exp.h"
#include "core/util/float_mode.h"
#include "core/util/limits.h"
#include "core/util/parallel_failure.h"

#include <cmath>

namespace sosrep {
namespace {

using Precision = PackedSymmetric::Precision;

/// out[i] = k(r_i) for `len` squared distances d2[i], in the distances' precision S (single
/// precision exp is twice as wide per instruction), stored at T.
template <typename S, typename T>
void radialColumn(const S* d2, T* out, Eigen::Index len, const KernelSpec& spec,
                  const SdoProfile* profile)
{
    using In = Eigen::Map<const Eigen::Array<S, Eigen::Dynamic, 1>>;
    using Out = Eigen::Map<Eigen::Array<T, Eigen::Dynamic, 1>>;
    const In r2(d2, len);
    Out k(out, len);
    const double l = spec.lengthScale;
    if (profile) {
        const double inv = 1.0 / l;
        for (Eigen::Index i = 0; i < len; ++i) {
            k(i) = static_cast<T>(profile->value(std::sqrt(static_cast<double>(r2(i))) * inv));
        }
    } else if (spec.type == KernelType::Gaussian) {
        k = (r2 * static_cast<S>(-0.5 / (l * l))).exp().template cast<T>();
    } else {
        k = (r2.sqrt() * static_cast<S>(-1.0 / l)).exp().template cast<T>();
    }
    flushSubnormalEntries(k); // in T: a double entry stored in single precision too
}

/// Column j of `k` (from the diagonal down) at its precision.
template <typename F> void withColumn(PackedSymmetric& k, Eigen::Index j, F f)
{
    if (k.precision() == Precision::Double) {
        f(k.columnDouble(j));
    } else {
        f(k.columnSingle(j));
    }
}

} // namespace

void KernelOperator::checkDenseMemory(Eigen::Index n, PackedSymmetric::Precision precision)
{
    // checkMatrixSize counts doubles: the packed triangle's bytes as that many.
    const double bytes = PackedSymmetric::bytesFor(double(n), precision);
    checkMatrixSize(bytes / sizeof(double), 1.0, "backend",
                    "a dense kernel for " + std::to_string(n) +
                        " rows (fit on a subsample of the rows, or use the low-rank back-end)");
}

void KernelOperator::ensureDense() const
{
    std::call_once(m_denseOnce.flag, [this] {
        if (m_denseDeferred) {
            m_deferredSparse ? buildSparse(nullptr) : buildDense(nullptr);
            m_denseDeferred = false;
        }
    });
}

void KernelOperator::buildDense(const SweepWorkspace* workspace) const
{
    const Eigen::Index n = size();
    const Precision precision = workspace ? workspace->precision() : Precision::Double;
    checkDenseMemory(n, precision);
    m_dense = PackedSymmetric(n, precision, workspace ? workspace->pool() : nullptr);
    const SdoProfile* profile = m_profile.get();
    if (m_spec.type == KernelType::Sdo && !profile) {
        // Random features: K = Phi Phi^T, by panels of columns from the diagonal down.
        constexpr Eigen::Index kPanel = 256;
        ParallelFailure failure;
#pragma omp parallel
        {
            const FlushSubnormalsScope subnormalsFlushed;
#pragma omp for schedule(dynamic, 1)
            for (Eigen::Index c = 0; c < n; c += kPanel) {
                failure.run([&] {
                    const Eigen::Index w = std::min(kPanel, n - c);
                    const Matrix block =
                        m_phi.middleRows(c, n - c) * m_phi.middleRows(c, w).transpose();
                    for (Eigen::Index jj = 0; jj < w; ++jj) {
                        withColumn(m_dense, c + jj, [&](auto* out) {
                            for (Eigen::Index i = jj; i < n - c; ++i) {
                                out[i - jj] =
                                    static_cast<std::remove_pointer_t<decltype(out)>>(block(i, jj));
                            }
                        });
                    }
                });
            }
        }
        failure.rethrow();
    } else if (workspace && workspace->serves(m_train)) {
        const PackedSymmetric& d2 = workspace->squaredDistances();
        ParallelFailure failure;
#pragma omp parallel
        {
            const FlushSubnormalsScope subnormalsFlushed;
#pragma omp for schedule(dynamic, 64)
            for (Eigen::Index j = 0; j < n; ++j) {
                failure.run([&] {
                    withColumn(m_dense, j, [&](auto* out) {
                        if (d2.precision() == Precision::Single) {
                            radialColumn(d2.columnSingle(j), out, n - j, m_spec, profile);
                        } else {
                            radialColumn(d2.columnDouble(j), out, n - j, m_spec, profile);
                        }
                    });
                });
            }
        }
        failure.rethrow();
    } else {
        forEachDistanceColumn(m_train, [&](Eigen::Index j, const double* d2, Eigen::Index len) {
            withColumn(m_dense, j, [&](auto* out) { radialColumn(d2, out, len, m_spec, profile); });
        });
    }
    if (m_spec.type != KernelType::Sdo || profile) {
        // Unit diagonal exactly (random features keep their own estimate of k(x, x), ~1).
        for (Eigen::Index j = 0; j < n; ++j) {
            withColumn(m_dense, j, [](auto* out) { out[0] = 1; });
        }
    }
}

/// Rows of a against b in blocks of this many (kernel_operator.cpp's block).
constexpr Eigen::Index kCrossBlock = 256;

Matrix KernelOperator::crossDistances(const MatrixRef& a, const MatrixRef& b)
{
    const Vector norms = b.rowwise().squaredNorm();
    Matrix out(a.rows(), b.rows());
    ParallelFailure failure;
#pragma omp parallel
    {
        const FlushSubnormalsScope subnormalsFlushed;
#pragma omp for schedule(dynamic)
        for (Eigen::Index s = 0; s < a.rows(); s += kCrossBlock) {
            failure.run([&] {
                const Eigen::Index rows = std::min(kCrossBlock, a.rows() - s);
                out.middleRows(s, rows) = squaredDistancesZeroed(a.middleRows(s, rows), b, norms);
            });
        }
    }
    failure.rethrow();
    return out;
}

} // namespace sosrep
