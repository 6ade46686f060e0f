// SPDX-License-Identifier: MIT
// The sparse kernel of KernelOperator (issue 48): which back-end a length scale takes, the
// matrix of the entries within the truncation radius, and the field at the sweep's validation
// rows from the centres near each.
#include "core/kernels/kernel_operator.h"

#include "core/data/split.h"
#include "core/kernels/sweep_workspace.h"
#include "core/numerics/flushed_exp.h"
#include "core/numerics/kd_tree.h"
#include "core/numerics/row_blocks.h"
#include "core/util/float_mode.h"
#include "core/util/limits.h"
#include "core/util/parallel_failure.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

namespace sosrep {
namespace {

/// Below this many rows Auto keeps a dense kernel: a product is cheap whatever the length
/// scale, and small data's fits stay those of the dense path, bit for bit.
constexpr Eigen::Index kSparseMinRows = 2000;

/// Rows whose neighbours within the truncation radius are counted to predict the sparse
/// kernel's entries (every n/256-th row: the same rows every time).
constexpr Eigen::Index kSampledRows = 256;

/// Seconds a fit spends per entry of its kernel: building it, and the ~25 products of a Newton
/// fit. Measured on the shuttle split at N = 7000 (2-core AMD EPYC, docs/performance.md): a
/// dense entry of N^2 (half of them stored, each serving both positions) costs 0.13 ns to
/// build from a sweep's stored distances and 0.11 ns per product in single precision, 1 and
/// 0.16 ns in double; a sparse entry 8 ns (single) or 10 ns (double) to compute and store, and
/// 0.45 or 0.6 ns per product (one multiply-add with a gathered operand and its index).
constexpr double kProductsPerFit = 25.0;
constexpr double kDenseFitEntrySingle = 0.13e-9 + kProductsPerFit * 0.11e-9;
constexpr double kDenseFitEntryDouble = 1.0e-9 + kProductsPerFit * 0.16e-9;
constexpr double kSparseFitEntrySingle = 8e-9 + kProductsPerFit * 0.45e-9;
constexpr double kSparseFitEntryDouble = 10e-9 + kProductsPerFit * 0.6e-9;
/// And the k-d tree's searches: 0.5 ns per coordinate of a distance it measures. A fitting row
/// is searched twice (counting, filling) within the truncation radius; a validation row (a
/// quarter as many) once for its nearest centre and once within the radius beyond it, which
/// in high dimension is wide. In low dimension a search measures a few times the rows it
/// finds; in high dimension the boxes prune little and it measures nearly every row (ResNet
/// features, d = 512: 3000 of 5600 rows measured for 4 found), which rules sparse out there.
constexpr double kSearchCoordinate = 0.5e-9;
constexpr double kValidationShare = 0.25;
/// A Nystroem fit per entry of K_nm: 2 ns to build, two streaming passes per product; and
/// the M x M eigendecomposition (~0.3 s at M = 1000, scaled as M^3).
constexpr double kNystromFitEntry = 2e-9 + kProductsPerFit * 0.5e-9;
constexpr double kNystromEigenSeconds = 0.3e-9;
/// Above kAutoDenseRows the choice is between an exact sparse kernel and Nystroem's
/// approximation: the exact one is taken while its fit costs at most this many times
/// Nystroem's, or kUnresolvedPremium times where l is finer than the landmarks resolve (its K
/// is far from the kernel there, or the fit is refused).
constexpr double kExactPremium = 4.0;
constexpr double kUnresolvedPremium = 20.0;
/// Memory the sparse kernel may take on its own (values and column indices).
constexpr double kMaxSparseBytes = 2e9;

double sparseEntryBytes(bool single)
{
    return (single ? sizeof(float) : sizeof(double)) + sizeof(std::int32_t);
}

/// How far a row may lie from the nearest of m rows spread over the data (every n/m-th row,
/// as Nystroem's landmarks are spread; the same rows every time): the 90th percentile over
/// sampled rows, so the smallest l the landmarks resolve for all but the sparsest tenth of the
/// rows (where anomalies lie; a row farther than 5.3 l from every landmark is not covered).
double landmarkSpacing(const MatrixRef& train, Eigen::Index m)
{
    const Eigen::Index n = train.rows();
    const Eigen::Index stride = std::max<Eigen::Index>(1, n / m);
    std::vector<Eigen::Index> rows;
    for (Eigen::Index i = 0; i < n && Eigen::Index(rows.size()) < m; i += stride) {
        rows.push_back(i);
    }
    const Matrix landmarks = rowsOf(train, rows);
    const KdTree tree(landmarks);
    std::vector<double> nearest;
    const Eigen::Index step = std::max<Eigen::Index>(1, n / kSampledRows);
    std::vector<double> q(static_cast<size_t>(train.cols()));
    for (Eigen::Index i = step / 2; i < n; i += step) {
        for (Eigen::Index c = 0; c < train.cols(); ++c) {
            q[size_t(c)] = train(i, c);
        }
        nearest.push_back(std::sqrt(tree.nearestSquaredDistance(q.data())));
    }
    const size_t at = nearest.size() * 9 / 10;
    std::nth_element(nearest.begin(), nearest.begin() + long(at), nearest.end());
    return nearest[at];
}

} // namespace

BackendPlan KernelOperator::planBackend(const MatrixRef& train, const KernelSpec& spec,
                                        std::shared_ptr<const KdTree>& tree, bool single)
{
    const Eigen::Index n = train.rows();
    BackendPlan plan;
    const bool lowRank = spec.backend == BackendChoice::LowRank ||
                         (spec.backend == BackendChoice::Auto && n > KernelSpec::kAutoDenseRows);
    plan.backend = lowRank ? KernelBackend::Nystrom : KernelBackend::Dense;
    if (spec.type == KernelType::Sdo) {
        plan.reason = "the sdo kernel is never held sparse";
        return plan;
    }
    if (spec.backend == BackendChoice::Sparse) {
        plan.backend = KernelBackend::Sparse;
        plan.reason = "asked for";
        return plan;
    }
    if (spec.backend != BackendChoice::Auto) {
        plan.reason = "asked for";
        return plan;
    }
    if (n <= kSparseMinRows) {
        plan.reason = "small data";
        return plan;
    }
    const double r = truncationRadius(spec);
    if (r >= boundingDiameter(train)) {
        plan.reason = "every pair within the truncation radius";
        return plan;
    }
    // What sparse may cost: the dense fit's time, or a premium on Nystroem's; and memory.
    const double perEntry = single ? kSparseFitEntrySingle : kSparseFitEntryDouble;
    const double maxEntries = kMaxSparseBytes / sparseEntryBytes(single);
    bool unresolved = false;
    double budget = 0.0;
    if (n <= KernelSpec::kAutoDenseRows) {
        budget = double(n) * double(n) * (single ? kDenseFitEntrySingle : kDenseFitEntryDouble);
    } else {
        const double m = double(std::min<Eigen::Index>(spec.rank, n));
        unresolved = spec.lengthScale < landmarkSpacing(train, Eigen::Index(m));
        budget = (unresolved ? kUnresolvedPremium : kExactPremium) *
                 (double(n) * m * kNystromFitEntry + kNystromEigenSeconds * m * m * m);
    }
    if (!tree) {
        tree = std::make_shared<const KdTree>(train);
    }
    // Sampled rows' entries and searches, extrapolated to all rows; each row's count capped (a
    // few crowded rows cannot hide the rest), and sampling stopped once the sample alone is
    // over the budget.
    const Eigen::Index stride = std::max<Eigen::Index>(1, n / kSampledRows);
    const double samples = double((n + stride - 1) / stride);
    const double scale = double(n) / samples;
    const Eigen::Index cap = static_cast<Eigen::Index>(
        std::min(double(n), 8.0 * std::min(budget / perEntry, maxEntries) / double(n) + 1.0));
    const double coordinate = double(train.cols()) * kSearchCoordinate;
    const bool gaussian = spec.type == KernelType::Gaussian;
    double entries = 0.0;
    double cost = 0.0;
    Eigen::Index sampled = 0;
    for (Eigen::Index i = 0; i < n && cost * scale < budget; i += stride) {
        const double* row = tree->rowOf(i);
        Eigen::Index examined = 0;
        const auto found = double(tree->countWithin(row, r * r, cap, &examined));
        // The row as a validation row would be searched: its nearest other row, then the
        // centres within the radius beyond it (evaluateSparse).
        const double nearest = tree->nearestSquaredDistance(row, i);
        const double bound =
            gaussian ? nearest + r * r : (std::sqrt(nearest) + r) * (std::sqrt(nearest) + r);
        Eigen::Index wide = 0;
        tree->countWithin(row, bound, n, &wide);
        entries += found;
        cost += found * perEntry +
                coordinate * (2.0 * double(examined) + kValidationShare * double(examined + wide));
        ++sampled;
    }
    plan.predictedNonZeros = entries * scale;
    if (sampled == Eigen::Index(samples) && cost * scale < budget &&
        plan.predictedNonZeros <= maxEntries) {
        plan.backend = KernelBackend::Sparse;
        plan.reason = unresolved ? "finer than the landmarks resolve" : "predicted cheaper";
    } else {
        plan.reason = "sparse predicted costlier";
    }
    return plan;
}

void KernelOperator::buildSparse(const SweepWorkspace* workspace) const
{
    if (!m_tree) {
        m_tree = std::make_shared<const KdTree>(m_train);
    }
    const bool single = workspace && workspace->precision() == PackedSymmetric::Precision::Single;
    const double r = truncationRadius(m_spec);
    const double l = m_spec.lengthScale;
    RadialProfile profile;
    profile.gaussian = m_spec.type == KernelType::Gaussian;
    profile.scale = profile.gaussian ? -0.5 / (l * l) : -1.0 / l;
    // Asked for, it is counted first and refused over the limit of any one matrix (a dense
    // one's); chosen by the planner, its sampled prediction was within the planner's 2 GB.
    const double maxEntries = m_spec.backend == BackendChoice::Sparse
                                  ? limits::kMaxMatrixBytes / sparseEntryBytes(single)
                                  : 0.0;
    m_sparse = SparseSymmetric::build(*m_tree, r * r, profile,
                                      single ? SparseSymmetric::Precision::Single
                                             : SparseSymmetric::Precision::Double,
                                      maxEntries);
    // After the fact: the tree's counts are exact, and a kernel past the limit is refused
    // before any solver step (the sample's prediction decided only the back-end).
    checkMatrixSize(double(m_sparse.nonZeros()) * sparseEntryBytes(single) / sizeof(double), 1.0,
                    "backend",
                    "a sparse kernel of " + std::to_string(m_sparse.nonZeros()) +
                        " entries (use a larger length scale or the low-rank back-end)");
}

FieldValues KernelOperator::evaluateSparse(const MatrixRef& y, const VectorRef& w, bool deriv) const
{
    // As evaluateExponential, over the centres that matter: per query, the nearest centre's
    // squared distance m, then every centre whose term exp(-(r^2 - m) / 2l^2) (Gaussian) or
    // exp(-(r - sqrt m) / l) (Laplace) is at least kSparseTolerance, so the value relative to
    // the nearest term is exact to 1e-16 per centre left out, however far the query lies.
    const Eigen::Index q = y.rows();
    const int d = dim();
    const double l = m_spec.lengthScale;
    const bool gaussian = m_spec.type == KernelType::Gaussian;
    const double r = truncationRadius(m_spec);
    FieldValues out;
    out.value.resize(q);
    out.logShift.resize(q);
    if (deriv) {
        out.gradient.resize(q, d);
        out.laplacian.resize(q);
    }
    ParallelFailure failure;
#pragma omp parallel
    {
        const FlushSubnormalsScope subnormalsFlushed;
        std::vector<double> point;
        Eigen::VectorXd weighted;
        failure.run([&] {
            point.resize(static_cast<size_t>(d));
            weighted.resize(d);
        });
#pragma omp for schedule(dynamic, 16)
        for (Eigen::Index i = 0; i < q; ++i) {
            failure.run([&] {
                for (int c = 0; c < d; ++c) {
                    point[static_cast<size_t>(c)] = y(i, c);
                }
                const double nearest = m_tree->nearestSquaredDistance(point.data());
                const double bound = gaussian ? nearest + r * r
                                              : (std::sqrt(nearest) + r) * (std::sqrt(nearest) + r);
                double f = 0.0, s = 0.0, lap = 0.0;
                weighted.setZero();
                const double rootNearest = std::sqrt(nearest);
                m_tree->forEachWithin(point.data(), bound, [&](Eigen::Index j, double d2) {
                    double k = 0.0, factor = 0.0;
                    if (gaussian) {
                        k = flushedExp((d2 - nearest) * (-0.5 / (l * l)));
                        factor = k; // grad k = -(y - x) k / l^2
                        lap += k * d2 * w(j);
                    } else {
                        const double rj = std::sqrt(d2);
                        k = flushedExp((rj - rootNearest) * (-1.0 / l));
                        factor = k / std::max(rj, 1e-12 * l); // grad k = -(y - x) k / (r l)
                        lap += factor * w(j);
                    }
                    f += k * w(j);
                    if (deriv) {
                        s += factor * w(j);
                        weighted += (factor * w(j)) * m_train.row(j).transpose();
                    }
                });
                out.value(i) = f;
                out.logShift(i) = gaussian ? -nearest * (0.5 / (l * l)) : -rootNearest / l;
                if (!deriv) {
                    return;
                }
                const double scale = gaussian ? -l * l : -l;
                for (int c = 0; c < d; ++c) {
                    out.gradient(i, c) = (y(i, c) * s - weighted(c)) / scale;
                }
                // Gaussian: lap k = (r^2 / l^4 - d / l^2) k; Laplace: (1/l^2 - (d-1)/(r l)) k.
                out.laplacian(i) = gaussian ? lap / (l * l * l * l) - f * (d / (l * l))
                                            : f / (l * l) - lap * ((d - 1) / l);
            });
        }
    }
    failure.rethrow();
    return out;
}

} // namespace sosrep
