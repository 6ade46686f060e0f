// SPDX-License-Identifier: MIT
// MMD^2 between a model and a sample, or between two samples, with the median heuristic.
#include "core/metrics/mmd.h"

#include "core/errors.h"
#include "core/estimators/estimator.h"
#include "core/kernels/kernel_operator.h"
#include "core/numerics/distances.h"
#include "core/numerics/flushed_exp.h"
#include "core/random.h"
#include "core/util/float_mode.h"
#include "core/util/parallel_failure.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numeric>
#include <optional>
#include <sstream>

namespace sosrep {
namespace {

constexpr Eigen::Index kBlock = 256;
constexpr Eigen::Index kTile = 1024;

/// One measure made ready for the sums: a mixture (atoms included), or weights on the grid.
struct Prepared
{
    std::optional<GaussianMixture> mixture;
    /// The self term sum_{j != j'} w_j w_j' k / (1 - sum w^2) instead of the full double sum:
    /// importance-weighted draws, whose diagonal would bias E k(X, X') upward.
    bool unbiasedSelf = false;
    Matrix gridWeights; // nx x ny, sum 1 (grid quadrature)
};

double selfTerm(const Prepared& p, double h)
{
    const GaussianMixture& g = *p.mixture;
    const double full = mixtureKernelMean(g, g, h);
    if (!p.unbiasedSelf) {
        return full;
    }
    // Atoms: the diagonal of k is 1.
    const double w2 = g.weights.squaredNorm();
    return (full - w2) / (1.0 - w2);
}

/// The model's log density at the rows of y, in the scaled coordinates the MMD is taken in.
Vector logDensity(const FittedModel& model, const MatrixRef& y)
{
    return model.modelLogValues(y).values;
}

void requireDensity(const FittedModel& model)
{
    if (model.kind() == DensityKind::Ratio || model.kind() == DensityKind::Score) {
        throw ParameterError("model", "'" + model.estimator() + "' is a " + toString(model.kind()) +
                                          ", not a density: MMD compares probability measures");
    }
}

double modelLengthScale(const FittedModel& model, double fallback)
{
    const KernelOperator* k = model.kernel();
    return k ? k->spec().lengthScale : fallback;
}

/// The rows a model's mass sits around: its kernel's training points (or centres), else the
/// reference rows.
Matrix modelAnchors(const FittedModel& model, const MatrixRef& reference)
{
    const KernelOperator* k = model.kernel();
    if (k && k->size() > 0 && k->train().cols() == reference.cols()) {
        return k->train();
    }
    return reference;
}

std::vector<double> axis(double lo, double hi, int n)
{
    std::vector<double> a(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) {
        a[size_t(i)] = lo + (hi - lo) * (i + 0.5) / n; // cell midpoints
    }
    return a;
}

Matrix axisKernel(const std::vector<double>& a, const std::vector<double>& b, double h)
{
    Matrix k(static_cast<Eigen::Index>(a.size()), static_cast<Eigen::Index>(b.size()));
    for (size_t i = 0; i < a.size(); ++i) {
        for (size_t j = 0; j < b.size(); ++j) {
            const double t = a[i] - b[j];
            k(Eigen::Index(i), Eigen::Index(j)) = std::exp(-t * t / (2.0 * h * h));
        }
    }
    return k;
}

/// Grid quadrature in d = 2. The separable kernel makes every term a few small matrix products:
/// for grid weights P (nx x ny), sum P o (Kx P' Ky); against atoms x_i, sum_i a_i kx_i^T P ky_i.
class GridQuadrature
{
public:
    GridQuadrature(const MmdGrid& grid, double h) : m_grid(grid), m_h(h)
    {
        m_x = axis(grid.lo[0], grid.hi[0], grid.points);
        m_y = axis(grid.lo[1], grid.hi[1], grid.points);
        m_kx = axisKernel(m_x, m_x, h);
        m_ky = axisKernel(m_y, m_y, h);
    }

    /// The model's mass on the grid cells, normalized to 1 (pre-densities too).
    Matrix weights(const FittedModel& model) const
    {
        const Eigen::Index n = static_cast<Eigen::Index>(m_x.size());
        Matrix points(n * n, 2);
        for (Eigen::Index j = 0; j < n; ++j) {
            for (Eigen::Index i = 0; i < n; ++i) {
                points(j * n + i, 0) = m_x[size_t(i)];
                points(j * n + i, 1) = m_y[size_t(j)];
            }
        }
        const Vector logp = logDensity(model, points);
        const double top = logp.maxCoeff();
        if (!std::isfinite(top)) {
            throw NumericalError("the model's density is not finite on the MMD grid");
        }
        Vector p = (logp.array() - top).exp();
        p /= p.sum();
        return Eigen::Map<const Matrix>(p.data(), n, n); // P(i, j) at (x_i, y_j)
    }

    double term(const Prepared& a, const Prepared& b) const
    {
        if (!a.mixture && !b.mixture) {
            return a.gridWeights.cwiseProduct(m_kx * b.gridWeights * m_ky).sum();
        }
        if (a.mixture && b.mixture) {
            return mixtureKernelMean(*a.mixture, *b.mixture, m_h);
        }
        const GaussianMixture& atoms = a.mixture ? *a.mixture : *b.mixture;
        const Matrix& p = a.mixture ? b.gridWeights : a.gridWeights;
        const Matrix ax = axisKernel(column(atoms, 0), m_x, m_h); // n x nx
        const Matrix ay = axisKernel(column(atoms, 1), m_y, m_h); // n x ny
        const Vector perAtom = (ax * p).cwiseProduct(ay).rowwise().sum();
        return atoms.weights.dot(perAtom);
    }

    std::string describe() const
    {
        std::ostringstream s;
        s << "grid " << m_grid.points << " x " << m_grid.points << " on [" << m_grid.lo[0] << ", "
          << m_grid.hi[0] << "] x [" << m_grid.lo[1] << ", " << m_grid.hi[1] << "]";
        return s.str();
    }

private:
    static std::vector<double> column(const GaussianMixture& g, int c)
    {
        // Grid quadrature pairs a grid only with atoms (a mixture here has variance 0).
        return std::vector<double>(g.centres.col(c).data(), g.centres.col(c).data() + g.size());
    }

    MmdGrid m_grid;
    double m_h;
    std::vector<double> m_x, m_y;
    Matrix m_kx, m_ky;
};

/// Self-normalized importance sampling of a model: draws from a defensive proposal around its
/// anchors (half N(x_r, s^2 I), half N(x_r, 4 s^2 I), x_r uniform), weights p / q normalized.
Prepared importanceSample(const FittedModel& model, const MatrixRef& reference, double h,
                          const MmdOptions& options, std::string* detail)
{
    Matrix anchors = modelAnchors(model, reference);
    Rng rng(options.seed ^ 0x6d6d645f6d63ULL);
    if (anchors.rows() > 2000) {
        std::vector<Eigen::Index> idx(static_cast<size_t>(anchors.rows()));
        std::iota(idx.begin(), idx.end(), Eigen::Index(0));
        for (size_t i = 0; i < 2000; ++i) {
            std::swap(idx[i], idx[i + size_t(rng.uniform() * double(idx.size() - i))]);
        }
        Matrix sub(2000, anchors.cols());
        for (Eigen::Index i = 0; i < 2000; ++i) {
            sub.row(i) = anchors.row(idx[size_t(i)]);
        }
        anchors = sub;
    }
    const Eigen::Index d = anchors.cols();
    const double s = modelLengthScale(model, h);
    const int n = std::max(100, options.samples);
    Matrix z(n, d);
    for (int j = 0; j < n; ++j) {
        const Eigen::Index r = std::min<Eigen::Index>(
            anchors.rows() - 1, static_cast<Eigen::Index>(rng.uniform() * double(anchors.rows())));
        const double scale = rng.uniform() < 0.5 ? s : 2.0 * s;
        for (Eigen::Index c = 0; c < d; ++c) {
            z(j, c) = anchors(r, c) + scale * rng.normal();
        }
    }
    // log q by log-sum-exp over anchors and the two widths.
    const Matrix d2 = squaredDistances(z, anchors);
    const double dd = static_cast<double>(d);
    const double logA = -0.5 * dd * std::log(2.0 * M_PI * s * s);
    const double logB = -0.5 * dd * std::log(2.0 * M_PI * 4.0 * s * s);
    Vector logw = logDensity(model, z);
    for (int j = 0; j < n; ++j) {
        double top = -std::numeric_limits<double>::infinity();
        for (Eigen::Index r = 0; r < anchors.rows(); ++r) {
            top = std::max(top, logA - d2(j, r) / (2.0 * s * s));
        }
        double sum = 0.0;
        for (Eigen::Index r = 0; r < anchors.rows(); ++r) {
            sum += std::exp(logA - d2(j, r) / (2.0 * s * s) - top) +
                   std::exp(logB - d2(j, r) / (8.0 * s * s) - top);
        }
        const double logq = top + std::log(0.5 * sum / double(anchors.rows()));
        logw(j) -= logq;
    }
    const double top = logw.maxCoeff();
    if (!std::isfinite(top)) {
        throw NumericalError("the model's density is not finite at the Monte Carlo draws");
    }
    Vector w = (logw.array() - top).exp();
    w /= w.sum();
    Prepared out;
    out.mixture = GaussianMixture{z, w, Vector::Zero(n)};
    out.unbiasedSelf = true;
    std::ostringstream text;
    text << n << " importance draws (seed " << options.seed << "), effective sample size "
         << static_cast<long long>(std::round(1.0 / w.squaredNorm()));
    *detail = text.str();
    return out;
}

MmdGrid automaticGrid(const MatrixRef& reference, const std::vector<const FittedModel*>& models,
                      double h, const MmdOptions& options)
{
    MmdGrid g = options.grid;
    double finest = h;
    double margin = 4.0 * h;
    for (const FittedModel* m : models) {
        const double l = modelLengthScale(*m, h);
        finest = std::min(finest, l);
        margin = std::max(margin, 5.0 * l);
    }
    if (!g.valid()) {
        for (int c = 0; c < 2; ++c) {
            double lo = reference.col(c).minCoeff();
            double hi = reference.col(c).maxCoeff();
            for (const FittedModel* m : models) {
                const Matrix anchors = modelAnchors(*m, reference);
                lo = std::min(lo, anchors.col(c).minCoeff());
                hi = std::max(hi, anchors.col(c).maxCoeff());
            }
            g.lo[c] = lo - margin;
            g.hi[c] = hi + margin;
        }
    }
    if (g.points <= 0) {
        const double width = std::max(g.hi[0] - g.lo[0], g.hi[1] - g.lo[1]);
        g.points = std::clamp(static_cast<int>(std::ceil(width / (finest / 4.0))), 64, 512);
    }
    return g;
}

long long closedFormPairs(const std::vector<long long>& sizes)
{
    long long total = 0;
    for (long long a : sizes) {
        for (long long b : sizes) {
            total += a * b;
        }
    }
    return total;
}

} // namespace

double mixtureKernelMean(const GaussianMixture& a, const GaussianMixture& b, double h)
{
    const double h2 = h * h;
    const double halfD = 0.5 * a.dim();
    // Mixtures of one component variance each (samples, KDE, kernel SoS) take the vectorized
    // path: one factor and one exponent scale for the whole block.
    const bool uniform = a.size() > 0 && b.size() > 0 &&
                         (a.variances.array() == a.variances(0)).all() &&
                         (b.variances.array() == b.variances(0)).all();
    // Tiles of kBlock x kTile pairs (2 MB of distances): whole rows of a 20000-atom sample
    // spent most of the time in page faults.
    const Eigen::Index rowBlocks = (a.size() + kBlock - 1) / kBlock;
    const Eigen::Index colBlocks = (b.size() + kTile - 1) / kTile;
    double total = 0.0;
    ParallelFailure failure;
#pragma omp parallel
    {
        const FlushSubnormalsScope subnormalsFlushed;
#pragma omp for schedule(dynamic) reduction(+ : total)
        for (Eigen::Index tile = 0; tile < rowBlocks * colBlocks; ++tile) {
            failure.run([&] {
                const Eigen::Index begin = (tile / colBlocks) * kBlock;
                const Eigen::Index rows = std::min(kBlock, a.size() - begin);
                const Eigen::Index colBegin = (tile % colBlocks) * kTile;
                const Eigen::Index cols = std::min(kTile, b.size() - colBegin);
                const Matrix d2 = squaredDistances(a.centres.middleRows(begin, rows),
                                                   b.centres.middleRows(colBegin, cols));
                if (uniform) {
                    const double t = h2 + a.variances(0) + b.variances(0);
                    const Matrix k = flushedExp(d2 * (-0.5 / t));
                    total +=
                        std::pow(h2 / t, halfD) *
                        a.weights.segment(begin, rows).dot(k * b.weights.segment(colBegin, cols));
                    return;
                }
                double part = 0.0;
                for (Eigen::Index j = 0; j < cols; ++j) {
                    double col = 0.0;
                    for (Eigen::Index i = 0; i < rows; ++i) {
                        const double t = h2 + a.variances(begin + i) + b.variances(colBegin + j);
                        col += a.weights(begin + i) * std::pow(h2 / t, halfD) *
                               std::exp(-d2(i, j) / (2.0 * t));
                    }
                    part += b.weights(colBegin + j) * col;
                }
                total += part;
            });
        }
    }
    failure.rethrow();
    return total;
}

double medianPairwiseDistance(const MatrixRef& x, uint64_t seed, int maxRows)
{
    Matrix rows = x;
    if (x.rows() > maxRows) {
        Rng rng(seed ^ 0x6d656469616eULL);
        std::vector<Eigen::Index> idx(static_cast<size_t>(x.rows()));
        std::iota(idx.begin(), idx.end(), Eigen::Index(0));
        rows.resize(maxRows, x.cols());
        for (int i = 0; i < maxRows; ++i) {
            std::swap(idx[size_t(i)],
                      idx[size_t(i) + size_t(rng.uniform() * double(idx.size() - size_t(i)))]);
            rows.row(i) = x.row(idx[size_t(i)]);
        }
    }
    const Matrix d2 = squaredDistances(rows, rows);
    std::vector<double> upper;
    upper.reserve(static_cast<size_t>(rows.rows() * (rows.rows() - 1) / 2));
    for (Eigen::Index j = 1; j < rows.rows(); ++j) {
        for (Eigen::Index i = 0; i < j; ++i) {
            upper.push_back(d2(i, j));
        }
    }
    if (upper.empty()) {
        throw ParameterError("bandwidth", "the median pairwise distance needs two rows or more");
    }
    auto mid = upper.begin() + static_cast<std::ptrdiff_t>(upper.size() / 2);
    std::nth_element(upper.begin(), mid, upper.end());
    const double median = std::sqrt(*mid);
    if (!(median > 0.0)) {
        throw ParameterError("bandwidth", "the median pairwise distance is 0 (over half the pairs "
                                          "are duplicate rows): give a bandwidth");
    }
    return median;
}

SampleMmd sampleMmd(const MatrixRef& x, const MatrixRef& y, double h)
{
    const GaussianMixture a = GaussianMixture::atoms(x);
    const GaussianMixture b = GaussianMixture::atoms(y);
    const double n = static_cast<double>(x.rows());
    const double m = static_cast<double>(y.rows());
    const double xx = mixtureKernelMean(a, a, h); // includes the diagonal, 1/n
    const double yy = mixtureKernelMean(b, b, h);
    const double xy = mixtureKernelMean(a, b, h);
    SampleMmd out;
    out.vStatistic = xx + yy - 2.0 * xy;
    if (x.rows() < 2 || y.rows() < 2) {
        throw ParameterError("data", "the U-statistic needs two rows or more in each sample");
    }
    out.uStatistic = (xx * n - 1.0) / (n - 1.0) + (yy * m - 1.0) / (m - 1.0) - 2.0 * xy;
    return out;
}

std::string toString(MmdMethod method)
{
    switch (method) {
    case MmdMethod::ClosedForm:
        return "closed-form";
    case MmdMethod::GridQuadrature:
        return "grid-quadrature";
    case MmdMethod::MonteCarlo:
        return "monte-carlo";
    }
    return "closed-form";
}

MmdMeasure MmdMeasure::ofSample(const MatrixRef& rows)
{
    MmdMeasure m;
    m.sample = rows;
    return m;
}

MmdMeasure MmdMeasure::ofModel(const FittedModel& model)
{
    MmdMeasure m;
    m.model = &model;
    return m;
}

MmdResult mmd(const MmdMeasure& a, const MmdMeasure& b, const MatrixRef& reference,
              const MmdOptions& options)
{
    std::vector<const FittedModel*> models;
    for (const MmdMeasure* m : {&a, &b}) {
        if (m->model) {
            requireDensity(*m->model);
            models.push_back(m->model);
        } else if (m->sample.rows() == 0) {
            throw ParameterError("data", "an MMD sample needs at least one row");
        }
    }
    MmdResult result;
    result.bandwidth = options.bandwidth > 0.0 ? options.bandwidth
                                               : medianPairwiseDistance(reference, options.seed);
    const double h = result.bandwidth;
    // Closed form when every model is a Gaussian mixture and the pair count fits.
    std::vector<long long> sizes;
    bool mixtures = options.allowClosedForm;
    for (const MmdMeasure* m : {&a, &b}) {
        const long long size = m->model ? m->model->mixtureComponents() : m->sample.rows();
        mixtures = mixtures && size > 0;
        sizes.push_back(size);
    }
    std::array<Prepared, 2> prepared;
    const std::array<const MmdMeasure*, 2> measures = {&a, &b};
    if (mixtures && closedFormPairs(sizes) <= options.pairBudget) {
        result.method = MmdMethod::ClosedForm;
        for (size_t i = 0; i < 2; ++i) {
            prepared[i].mixture = measures[i]->model ? measures[i]->model->gaussianMixture()
                                                     : GaussianMixture::atoms(measures[i]->sample);
        }
        std::ostringstream text;
        text << "closed form over " << sizes[0] << " x " << sizes[1] << " components";
        result.detail = text.str();
        result.mmd2 = selfTerm(prepared[0], h) + selfTerm(prepared[1], h) -
                      2.0 * mixtureKernelMean(*prepared[0].mixture, *prepared[1].mixture, h);
        return result;
    }
    if (reference.cols() == 2) {
        result.method = MmdMethod::GridQuadrature;
        const GridQuadrature grid(automaticGrid(reference, models, h, options), h);
        for (size_t i = 0; i < 2; ++i) {
            if (measures[i]->model) {
                prepared[i].gridWeights = grid.weights(*measures[i]->model);
            } else {
                prepared[i].mixture = GaussianMixture::atoms(measures[i]->sample);
            }
        }
        result.detail = grid.describe();
        result.mmd2 = grid.term(prepared[0], prepared[0]) + grid.term(prepared[1], prepared[1]) -
                      2.0 * grid.term(prepared[0], prepared[1]);
        return result;
    }
    result.method = MmdMethod::MonteCarlo;
    for (size_t i = 0; i < 2; ++i) {
        if (measures[i]->model) {
            std::string text;
            MmdOptions o = options;
            o.seed = options.seed + i; // independent draws for two models
            prepared[i] = importanceSample(*measures[i]->model, reference, h, o, &text);
            result.detail += (result.detail.empty() ? "" : "; ") + text;
        } else {
            prepared[i].mixture = GaussianMixture::atoms(measures[i]->sample);
        }
    }
    result.mmd2 = selfTerm(prepared[0], h) + selfTerm(prepared[1], h) -
                  2.0 * mixtureKernelMean(*prepared[0].mixture, *prepared[1].mixture, h);
    return result;
}

} // namespace sosrep
