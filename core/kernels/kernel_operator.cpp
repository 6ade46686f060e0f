// SPDX-License-Identifier: MIT
// The kernel matrix as an operator: dense, sparse, Nystrom or random features.
#include "core/kernels/kernel_operator.h"

#include "core/errors.h"
#include "core/kernels/sdo_spectrum.h"
#include "core/kernels/sweep_workspace.h"
#include "core/numerics/distances.h"
#include "core/numerics/flushed_exp.h"
#include "core/numerics/row_blocks.h"
#include "core/random.h"
#include "core/util/float_mode.h"
#include "core/util/huge_pages.h"
#include "core/util/limits.h"
#include "core/util/parallel_failure.h"

#include <algorithm>
#include <cmath>

namespace sosrep {
namespace {

constexpr Eigen::Index kBlock = 256;

/// Exponent of the unit-diagonal kernel: log k = -r^2/(2 l^2) (Gaussian) or -r/l (Laplace).
Matrix logKernel(const Matrix& d2, KernelType type, double l)
{
    if (type == KernelType::Gaussian) {
        return d2 * (-0.5 / (l * l));
    }
    return d2.cwiseSqrt() * (-1.0 / l);
}

/// The exact SDO kernel, unit diagonal, from squared distances: G(r / l).
Matrix radialKernel(const Matrix& d2, const SdoProfile& profile, double l)
{
    Matrix k(d2.rows(), d2.cols());
    const double inv = 1.0 / l;
    for (Eigen::Index j = 0; j < d2.cols(); ++j) {
        for (Eigen::Index i = 0; i < d2.rows(); ++i) {
            k(i, j) = profile.value(std::sqrt(d2(i, j)) * inv);
        }
    }
    flushSubnormalEntries(k);
    return k;
}

/// A field for q query points in d dimensions, shifts 0, derivatives only if asked.
FieldValues allocateField(Eigen::Index q, int d, bool derivatives)
{
    FieldValues out;
    out.value.resize(q);
    out.logShift = Vector::Zero(q);
    if (derivatives) {
        out.gradient.resize(q, d);
        out.laplacian.resize(q);
    }
    return out;
}

} // namespace

KernelOperator::KernelOperator(const MatrixRef& train, const KernelSpec& spec,
                               const std::shared_ptr<SweepWorkspace>& workspace)
    : KernelOperator(train, spec, workspace, false)
{
}

std::shared_ptr<const KernelOperator> KernelOperator::forScoring(const MatrixRef& train,
                                                                 const KernelSpec& spec)
{
    return std::shared_ptr<const KernelOperator>(new KernelOperator(train, spec, nullptr, true));
}

std::shared_ptr<const KernelOperator> KernelOperator::forExactSums(const MatrixRef& train,
                                                                   const KernelSpec& spec)
{
    return std::shared_ptr<const KernelOperator>(
        new KernelOperator(train, spec, nullptr, true, true));
}

std::shared_ptr<const KernelOperator> KernelOperator::forScoring(const KernelOperator& fitted)
{
    auto k = std::shared_ptr<KernelOperator>(
        new KernelOperator(fitted.m_train, fitted.m_spec, nullptr, true));
    k->m_fittedWith = fitted.backendName();
    k->m_fittedNonZeros = fitted.nonZeros();
    if (fitted.m_backend == KernelBackend::Sparse) {
        k->m_deferredSparse = true;
        k->m_tree = fitted.m_tree;
    }
    return k;
}

KernelOperator::KernelOperator(const MatrixRef& train, const KernelSpec& spec,
                               const std::shared_ptr<SweepWorkspace>& workspace, bool deferDense,
                               bool lowRankOnlyIfAsked)
    : m_train(train), m_spec(spec), m_workspace(workspace)
{
    const int d = dim();
    spec.validate(d);
    spec.checkLengthScale(boundingDiameter(m_train));
    m_logDiagonal = logKernelDiagonal(spec, d);
    m_negativeEntries = spec.type == KernelType::Sdo;
    const Eigen::Index n = size();
    const bool large = spec.backend == BackendChoice::Auto && n > KernelSpec::kAutoDenseRows;
    bool lowRank = spec.backend == BackendChoice::LowRank || (large && !lowRankOnlyIfAsked);
    if (spec.type == KernelType::Sdo && spec.sdoMethod == SdoMethod::Exact) {
        m_profile = SdoProfile::get(d, spec.effectiveOrder(d));
    }
    if (deferDense) {
        // A model's scoring kernel: evaluations need no matrix; one built later (apply()) is
        // sparse where the fit's was, or where a dense one would not fit.
        m_deferredSparse =
            spec.type != KernelType::Sdo && (spec.backend == BackendChoice::Sparse || large);
        lowRank = lowRank && !m_deferredSparse;
    } else if (spec.type != KernelType::Sdo &&
               (spec.backend == BackendChoice::Sparse || spec.backend == BackendChoice::Auto)) {
        m_tree = workspace ? workspace->tree(m_train) : nullptr;
        const bool single =
            workspace && workspace->precision() == PackedSymmetric::Precision::Single;
        const BackendPlan plan = planBackend(m_train, spec, m_tree, single);
        if (plan.backend == KernelBackend::Sparse) {
            buildSparse(workspace.get());
            m_backend = KernelBackend::Sparse;
            return;
        }
        lowRank = plan.backend == KernelBackend::Nystrom;
    }
    if (lowRank && !(spec.type == KernelType::Sdo && spec.sdoMethod == SdoMethod::Rff)) {
        buildNystrom();
        return;
    }
    if (spec.type == KernelType::Sdo && !m_profile) {
        // Features for a = 1 from the seed, radii rescaled by 1/l (Prop. 7): the same seed gives
        // the same base sample for every length scale of a sweep.
        const int m = spec.effectiveOrder(d);
        const SdoSpectrum spectrum(d, m);
        Rng rng(spec.seed);
        const int t = spec.features;
        checkMatrixSize(double(n), double(t), "features",
                        "the " + std::to_string(n) + " x " + std::to_string(t) + " feature map");
        m_freq.resize(t, d);
        for (int k = 0; k < t; ++k) {
            for (int j = 0; j < d; ++j) {
                m_freq(k, j) = rng.normal();
            }
            m_freq.row(k).normalize();
        }
        const std::vector<double> radii = spectrum.sampleRadii(t, rng);
        m_phase.resize(t);
        for (int k = 0; k < t; ++k) {
            m_freq.row(k) *= radii[static_cast<size_t>(k)] / spec.lengthScale;
            m_phase(k) = 2.0 * M_PI * rng.uniform();
        }
        m_phi = features(m_train);
        m_backend = spec.backend == BackendChoice::Dense     ? KernelBackend::Dense
                    : spec.backend == BackendChoice::LowRank ? KernelBackend::LowRank
                    : t < n                                  ? KernelBackend::LowRank
                                                             : KernelBackend::Dense;
        if (m_backend == KernelBackend::Dense) {
            deferDense ? void(m_denseDeferred = true) : buildDense(workspace.get());
        }
        return;
    }
    deferDense ? void(m_denseDeferred = true) : buildDense(workspace.get());
}

int KernelOperator::rank() const
{
    switch (m_backend) {
    case KernelBackend::Nystrom:
        return static_cast<int>(m_landmarks.rows());
    case KernelBackend::LowRank:
        return static_cast<int>(m_freq.rows());
    case KernelBackend::Dense:
    case KernelBackend::Sparse:
        return 0;
    }
    return 0;
}

void KernelOperator::kernelOfDistances(const Matrix& d2, Matrix& out, Eigen::Index first) const
{
    const Eigen::Index rows = d2.rows();
    if (m_profile) {
        out.middleRows(first, rows) = radialKernel(d2, *m_profile, m_spec.lengthScale);
    } else {
        out.middleRows(first, rows) =
            logKernel(d2, m_spec.type, m_spec.lengthScale).array().exp().matrix();
        flushSubnormalEntries(out.middleRows(first, rows));
    }
}

Matrix KernelOperator::exactCross(const MatrixRef& a, const MatrixRef& b) const
{
    const Vector norms = b.rowwise().squaredNorm();
    Matrix out(a.rows(), b.rows());
    adviseHugePages(out.data(), size_t(out.size()) * sizeof(double));
    ParallelFailure failure;
#pragma omp parallel
    {
        const FlushSubnormalsScope subnormalsFlushed;
        Matrix d2; // reused by the thread's blocks (distances.h)
#pragma omp for schedule(dynamic)
        for (Eigen::Index s = 0; s < a.rows(); s += kBlock) {
            failure.run([&] {
                const Eigen::Index rows = std::min(kBlock, a.rows() - s);
                const auto block = a.middleRows(s, rows);
                squaredDistancesZeroedInto(block, block.rowwise().squaredNorm(), b, norms, d2);
                kernelOfDistances(d2, out, s);
            });
        }
    }
    failure.rethrow();
    return out;
}

Matrix KernelOperator::kernelFromDistances(const Matrix& d2) const
{
    Matrix out(d2.rows(), d2.cols());
    adviseHugePages(out.data(), size_t(out.size()) * sizeof(double));
    ParallelFailure failure;
#pragma omp parallel
    {
        const FlushSubnormalsScope subnormalsFlushed;
#pragma omp for schedule(dynamic)
        for (Eigen::Index s = 0; s < d2.rows(); s += kBlock) {
            failure.run([&] {
                const Eigen::Index rows = std::min(kBlock, d2.rows() - s);
                // The block exactCross computes, copied: the same bits.
                kernelOfDistances(d2.middleRows(s, rows), out, s);
            });
        }
    }
    failure.rethrow();
    return out;
}

KernelOperator KernelOperator::fromMatrix(const MatrixRef& kernelMatrix)
{
    KernelOperator op;
    op.m_dense = PackedSymmetric::fromLower(kernelMatrix, PackedSymmetric::Precision::Double);
    op.m_train.resize(kernelMatrix.rows(), 0);
    op.m_backend = KernelBackend::Dense;
    op.m_negativeEntries = op.m_dense.minCoeff() < 0.0;
    return op;
}

std::string KernelOperator::backendName() const
{
    if (!m_fittedWith.empty()) {
        return m_fittedWith;
    }
    if (m_backend == KernelBackend::Sparse) {
        return "sparse";
    }
    if (m_backend == KernelBackend::Nystrom) {
        return exactSdo() ? "exact-nystrom" : "nystrom";
    }
    if (exactSdo()) {
        return "exact-dense";
    }
    if (m_spec.type == KernelType::Sdo) {
        return m_backend == KernelBackend::LowRank ? "rff-lowrank" : "rff-dense";
    }
    return "dense";
}

Matrix KernelOperator::features(const MatrixRef& x) const
{
    const double scale = std::sqrt(2.0 / static_cast<double>(m_freq.rows()));
    Matrix arg = (2.0 * M_PI) * (x * m_freq.transpose());
    arg.rowwise() += m_phase.transpose();
    return scale * arg.array().cos().matrix();
}

bool KernelOperator::radialProfile(double r, double& k, double& dk, double& d2k) const
{
    const double l = m_spec.lengthScale;
    if (m_profile) {
        m_profile->derivatives(r / l, k, dk, d2k);
        dk /= l;
        d2k /= l * l;
        return true;
    }
    switch (m_spec.type) {
    case KernelType::Gaussian:
        k = flushedExp(-r * r / (2.0 * l * l));
        dk = -r / (l * l) * k;
        d2k = (r * r / (l * l) - 1.0) / (l * l) * k;
        return true;
    case KernelType::Laplace:
        k = flushedExp(-r / l);
        dk = -k / l;
        d2k = k / (l * l);
        return true;
    case KernelType::Sdo:
        return false;
    }
    return false;
}

Vector KernelOperator::featureWeights(const VectorRef& w) const
{
    if (m_phi.size() == 0) {
        return Vector();
    }
    return std::sqrt(2.0 / static_cast<double>(m_freq.rows())) * (m_phi.transpose() * w);
}

Vector KernelOperator::apply(const VectorRef& a) const
{
    if (m_backend == KernelBackend::LowRank) {
        const Vector w = m_phi.transpose() * a;
        return m_phi * w;
    }
    if (m_backend == KernelBackend::Nystrom) {
        // Two memory-bound N x M matrix-vector products, split over row blocks by hand (Eigen
        // runs matrix-vector products on one thread); on the distinct rows when rows repeat.
        const Vector held = sumsOverRepeats(a);
        const Eigen::Index n = m_knm.rows();
        const Eigen::Index m = m_knm.cols();
        Vector kta = Vector::Zero(m);
        ParallelFailure failure;
#pragma omp parallel
        {
            const FlushSubnormalsScope subnormalsFlushed;
            Vector part;
            failure.run([&] { part = Vector::Zero(m); });
#pragma omp for schedule(static) nowait
            for (Eigen::Index b = 0; b < n; b += 4096) {
                failure.run([&] {
                    const Eigen::Index rows = std::min<Eigen::Index>(4096, n - b);
                    part.noalias() += m_knm.middleRows(b, rows).transpose() * held.segment(b, rows);
                });
            }
#pragma omp critical
            failure.run([&] { kta += part; }); // skipped when any part is missing
        }
        failure.rethrow();
        const Vector c = m_pinv * kta;
        Vector out(n);
#pragma omp parallel
        {
            const FlushSubnormalsScope subnormalsFlushed;
#pragma omp for schedule(static)
            for (Eigen::Index b = 0; b < n; b += 4096) {
                failure.run([&] {
                    const Eigen::Index rows = std::min<Eigen::Index>(4096, n - b);
                    out.segment(b, rows).noalias() = m_knm.middleRows(b, rows) * c;
                });
            }
        }
        failure.rethrow();
        return m_distinctOf.empty() ? out : Vector(toEveryRow(out));
    }
    ensureDense();
    if (m_backend == KernelBackend::Sparse || m_deferredSparse) {
        return m_sparse.multiply(a);
    }
    return m_dense.multiply(a);
}

Vector KernelOperator::diagonal() const
{
    if (m_backend == KernelBackend::LowRank) {
        return m_phi.rowwise().squaredNorm();
    }
    if (m_backend != KernelBackend::Nystrom) {
        return Vector::Ones(size());
    }
    const Eigen::Index n = m_knm.rows();
    Vector out(n);
    ParallelFailure failure;
#pragma omp parallel
    {
        const FlushSubnormalsScope subnormalsFlushed;
#pragma omp for schedule(static)
        for (Eigen::Index b = 0; b < n; b += 1024) {
            failure.run([&] {
                const Eigen::Index rows = std::min<Eigen::Index>(1024, n - b);
                out.segment(b, rows) =
                    (m_knm.middleRows(b, rows) * m_pinvFactor).rowwise().squaredNorm();
            });
        }
    }
    failure.rethrow();
    return m_distinctOf.empty() ? out : Vector(toEveryRow(out));
}

bool KernelOperator::fieldAsKernelSum(const VectorRef& w, Matrix* centres,
                                      Vector* coefficients) const
{
    if (m_backend == KernelBackend::Nystrom) {
        *centres = m_landmarks;
        *coefficients = m_pinv * (m_knm.transpose() * sumsOverRepeats(w));
        return true;
    }
    if (m_spec.type == KernelType::Sdo && !exactSdo()) {
        return false;
    }
    *centres = m_train;
    *coefficients = w;
    return true;
}

double KernelOperator::logSquaredFieldIntegral(const VectorRef& w) const
{
    Matrix z;
    Vector c;
    if (m_spec.type != KernelType::Gaussian || !fieldAsKernelSum(w, &z, &c)) {
        throw std::logic_error("logSquaredFieldIntegral: only for Gaussian kernel sums");
    }
    const double l = m_spec.lengthScale;
    const Vector norms = z.rowwise().squaredNorm();
    const Eigen::Index n = z.rows();
    const Eigen::Index blocks = (n + kBlock - 1) / kBlock;
    // Each block of rows against the centres up to its own last row: the lower triangle of K'
    // once (the part below the diagonal blocks counts twice). Block sums are added in order,
    // so the result does not depend on the number of threads.
    std::vector<double> parts(static_cast<size_t>(blocks), 0.0);
    ParallelFailure failure;
#pragma omp parallel
    {
        const FlushSubnormalsScope subnormalsFlushed;
#pragma omp for schedule(dynamic)
        for (Eigen::Index p = 0; p < blocks; ++p) {
            failure.run([&] {
                const Eigen::Index b = p * kBlock;
                const Eigen::Index rows = std::min(kBlock, n - b);
                const Matrix d2 = squaredDistancesZeroed(z.middleRows(b, rows), z.topRows(b + rows),
                                                         norms.head(b + rows));
                // K' = exp(-r^2 / (2 (l sqrt 2)^2)) = exp(-r^2 / (4 l^2)).
                const Matrix k = flushedExp(d2 * (-0.25 / (l * l)));
                const auto cb = c.segment(b, rows);
                parts[static_cast<size_t>(p)] =
                    2.0 * cb.dot(k.leftCols(b) * c.head(b)) + cb.dot(k.rightCols(rows) * cb);
            });
        }
    }
    failure.rethrow();
    double quad = 0.0;
    for (double part : parts) {
        quad += part;
    }
    if (!(quad > 0.0)) {
        throw NumericalError("the integral of f^2 is not positive (" + std::to_string(quad) +
                             "): the coefficients are degenerate");
    }
    return 0.5 * dim() * std::log(M_PI * l * l) + std::log(quad);
}

Matrix KernelOperator::applyMany(const MatrixRef& a) const
{
    // Matrix-matrix products: Eigen's blocked GEMM (threaded under OpenMP) does in one pass
    // what a.cols() calls of apply() would do with memory-bound matrix-vector products.
    if (m_backend == KernelBackend::LowRank) {
        const Matrix w = m_phi.transpose() * a;
        return m_phi * w;
    }
    if (m_backend == KernelBackend::Nystrom) {
        const Matrix c = m_pinv * (m_knm.transpose() * sumsOverRepeats(a));
        return toEveryRow(m_knm * c);
    }
    ensureDense();
    if (m_backend == KernelBackend::Sparse || m_deferredSparse) {
        return m_sparse.multiplyColumns(a);
    }
    return m_dense.multiplyColumns(a);
}

FieldValues KernelOperator::evaluate(const MatrixRef& y, const VectorRef& weights,
                                     bool derivatives) const
{
    if (m_backend == KernelBackend::Nystrom) {
        // f(y) = sum_i w_i k~(x_i, y) = sum_m c_m k(l_m, y), c = K_mm^+ K_mn w.
        const Vector c = m_pinv * (m_knm.transpose() * sumsOverRepeats(weights));
        return exactSdo() ? evaluateRadial(m_landmarks, y, c, derivatives)
                          : evaluateExponential(m_landmarks, y, c, derivatives);
    }
    if (m_backend == KernelBackend::Sparse) {
        return evaluateSparse(y, weights, derivatives);
    }
    if (exactSdo()) {
        return evaluateRadial(m_train, y, weights, derivatives);
    }
    if (m_spec.type == KernelType::Sdo) {
        return evaluateFeatures(y, weights, derivatives);
    }
    return evaluateExponential(m_train, y, weights, derivatives);
}

FieldValues KernelOperator::evaluateExponential(const Matrix& centres, const MatrixRef& y,
                                                const VectorRef& w, bool deriv) const
{
    // Blocks of query points, each as one column of distances to every centre: the per-query
    // work (shift, exp, sums) runs over a contiguous column that stays in cache, and the
    // gradients' sums over centres are one product per block (measured at 1400 x 5600, d = 9:
    // 3x faster than whole-block passes over a queries x centres matrix).
    constexpr Eigen::Index kQueries = kInvariantBlock;
    const Eigen::Index q = y.rows();
    const Eigen::Index n = centres.rows();
    const int d = dim();
    const double l = m_spec.lengthScale;
    const bool gaussian = m_spec.type == KernelType::Gaussian;
    FieldValues out = allocateField(q, d, deriv);
    const Vector norms = centres.rowwise().squaredNorm();
    const Matrix wx = centres.array().colwise() * w.array(); // rows w_i x_i
    const std::shared_ptr<const SweepWorkspace> workspace = m_workspace.lock();
    const Matrix* stored = workspace ? workspace->validationDistances(y, centres) : nullptr;
    ParallelFailure failure;
#pragma omp parallel
    {
        const FlushSubnormalsScope subnormalsFlushed;
        // One set of block buffers per thread, reused: n x 64 doubles each (20 MB at n = 40 000),
        // allocated afresh per block they cost a page fault per page where the allocator maps
        // them (distances.h).
        Matrix padded;
        Matrix fresh;
        Matrix weights;
        Eigen::ArrayXd k(n), r(gaussian ? 0 : n);
#pragma omp for schedule(dynamic)
        for (Eigen::Index b = 0; b < q; b += kQueries) {
            failure.run([&] {
                const Eigen::Index rows = std::min(kQueries, q - b);
                const Matrix yb = y.middleRows(b, rows);
                if (!stored) {
                    // A padded full-width block: a query's distances do not depend on the batch,
                    // and equal the workspace's stored ones bit for bit.
                    centreQueryBlockInto(centres, norms, y, b, rows, padded, fresh);
                }
                const Eigen::Map<const Matrix> d2(stored ? stored->data() + b * n : fresh.data(), n,
                                                  rows);
                // Gaussian: k_i = exp(-r_i^2 / 2l^2), weights k_i; Laplace: k_i = exp(-r_i / l),
                // weights k_i / r_i (its gradient's and Laplacian's factor).
                weights.resize(deriv ? n : 0, rows);
                for (Eigen::Index c = 0; c < rows; ++c) {
                    const auto r2 = d2.col(c).array();
                    double shift = 0.0;
                    if (gaussian) {
                        const double nearest = r2.minCoeff();
                        shift = -nearest * (0.5 / (l * l));
                        k = ((r2 - nearest) * (-0.5 / (l * l))).exp();
                        flushSubnormalEntries(k);
                    } else {
                        r = r2.sqrt();
                        const double nearest = r.minCoeff();
                        shift = -nearest / l;
                        k = ((r - nearest) * (-1.0 / l)).exp();
                        flushSubnormalEntries(k);
                    }
                    const double f = k.matrix().dot(w);
                    out.value(b + c) = f;
                    out.logShift(b + c) = shift;
                    if (!deriv) {
                        continue;
                    }
                    if (gaussian) {
                        // grad k_i = -(y - x_i) k_i / l^2;  lap k_i = (r_i^2 / l^4 - d / l^2) k_i.
                        weights.col(c) = k.matrix();
                        const double r2k = (k * r2).matrix().dot(w);
                        out.laplacian(b + c) = r2k / (l * l * l * l) - f * (d / (l * l));
                    } else {
                        // grad k_i = -(y - x_i) k_i / (r_i l);  lap k_i = (1/l^2 - (d-1)/(r_i l))
                        // k_i. At r_i = 0 the Laplace kernel has a cusp: the floor keeps the sum
                        // finite and the term's direction zero (y - x_i = 0).
                        weights.col(c) = (k / r.max(1e-12 * l)).matrix();
                        const double krw = weights.col(c).dot(w);
                        out.laplacian(b + c) = f / (l * l) - krw * ((d - 1) / l);
                    }
                }
                if (deriv) {
                    // sum_i weight_i w_i (y - x_i) for every query of the block at once.
                    const Vector sw = weights.transpose() * w;
                    const Matrix g =
                        (yb.array().colwise() * sw.array()).matrix() - weights.transpose() * wx;
                    out.gradient.middleRows(b, rows) = g / (gaussian ? -l * l : -l);
                }
            });
        }
    }
    failure.rethrow();
    return out;
}

FieldValues KernelOperator::evaluateFeatures(const MatrixRef& y, const VectorRef& w,
                                             bool deriv) const
{
    const Eigen::Index q = y.rows();
    const int d = dim();
    const Vector wf = m_phi.transpose() * w; // feature-space weights: O(T) per query afterwards
    const double scale = std::sqrt(2.0 / static_cast<double>(m_freq.rows()));
    const Vector zNorm2 = m_freq.rowwise().squaredNorm();
    FieldValues out = allocateField(q, d, deriv);
    ParallelFailure failure;
#pragma omp parallel
    {
        const FlushSubnormalsScope subnormalsFlushed;
#pragma omp for schedule(dynamic)
        for (Eigen::Index b = 0; b < q; b += kBlock) {
            failure.run([&] {
                const Eigen::Index rows = std::min(kBlock, q - b);
                // Full-width blocks (row_blocks.h): a row's value does not depend on the batch.
                Matrix arg = (2.0 * M_PI) * (paddedRows(y, b, rows, kBlock) * m_freq.transpose());
                arg.rowwise() += m_phase.transpose();
                const Matrix c = arg.array().cos();
                out.value.segment(b, rows) = (scale * (c * wf)).head(rows);
                if (deriv) {
                    // d/dy cos(2 pi <z, y> + b) = -2 pi sin(.) z;  Laplacian = -4 pi^2 |z|^2
                    // cos(.).
                    const Matrix s = arg.array().sin();
                    const Matrix g = (-2.0 * M_PI * scale) *
                                     (s * (m_freq.array().colwise() * wf.array()).matrix());
                    out.gradient.middleRows(b, rows) = g.topRows(rows);
                    out.laplacian.segment(b, rows) =
                        ((-4.0 * M_PI * M_PI * scale) * (c * wf.cwiseProduct(zNorm2))).head(rows);
                }
            });
        }
    }
    failure.rethrow();
    return out;
}

FieldValues KernelOperator::evaluateRadial(const Matrix& centres, const MatrixRef& y,
                                           const VectorRef& w, bool deriv) const
{
    // k(x, y) / k(x, x) = G(rho), rho = |y - x| / l (G = g / g(0)); grad_y k = G'(rho) (y - x) /
    // (l r) and lap_y k = G''(rho) / l^2 + (d - 1) G'(rho) / (l r).
    const Eigen::Index q = y.rows();
    const int d = dim();
    const double l = m_spec.lengthScale;
    FieldValues out = allocateField(q, d, deriv);
    const Vector norms = centres.rowwise().squaredNorm();
    const Matrix wx = centres.array().colwise() * w.array();
    ParallelFailure failure;
#pragma omp parallel
    {
        const FlushSubnormalsScope subnormalsFlushed;
        // Block buffers reused by the thread's blocks (distances.h).
        Matrix d2;
        Matrix k(deriv ? kBlock : 0, centres.rows());
        Matrix kr(deriv ? kBlock : 0, centres.rows()); // G'(rho) / (l r)
        Matrix lap(deriv ? kBlock : 0, centres.rows());
#pragma omp for schedule(dynamic)
        for (Eigen::Index b = 0; b < q; b += kBlock) {
            failure.run([&] {
                const Eigen::Index rows = std::min(kBlock, q - b);
                const Matrix yb = paddedRows(y, b, rows, kBlock); // full width: row_blocks.h
                squaredDistancesZeroedInto(yb, yb.rowwise().squaredNorm(), centres, norms, d2);
                if (!deriv) {
                    out.value.segment(b, rows) = (radialKernel(d2, *m_profile, l) * w).head(rows);
                    return;
                }
                for (Eigen::Index j = 0; j < d2.cols(); ++j) {
                    for (Eigen::Index i = 0; i < kBlock; ++i) {
                        const double r = std::max(std::sqrt(d2(i, j)), 1e-12 * l);
                        double v = 0.0;
                        double g1 = 0.0;
                        double g2 = 0.0;
                        m_profile->derivatives(r / l, v, g1, g2);
                        k(i, j) = v;
                        kr(i, j) = g1 / (l * r);
                        lap(i, j) = g2 / (l * l) + (d - 1) * kr(i, j);
                    }
                }
                const Vector krw = kr * w;
                out.value.segment(b, rows) = (k * w).head(rows);
                const Matrix g = (yb.array().colwise() * krw.array()).matrix() - kr * wx;
                out.gradient.middleRows(b, rows) = g.topRows(rows);
                out.laplacian.segment(b, rows) = (lap * w).head(rows);
            });
        }
    }
    failure.rethrow();
    return out;
}

Matrix KernelOperator::crossKernel(const MatrixRef& a, const MatrixRef& b) const
{
    if (m_backend == KernelBackend::Nystrom) {
        return exactCross(a, m_landmarks) * m_pinv * exactCross(m_landmarks, b);
    }
    if (m_spec.type == KernelType::Sdo && !exactSdo()) {
        return features(a) * features(b).transpose();
    }
    return exactCross(a, b);
}

} // namespace sosrep
