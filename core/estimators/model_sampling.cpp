// SPDX-License-Identifier: MIT
// Drawing rows from a fitted density: exactly, by its Gaussian-mixture form.
#include "core/estimators/model_sampling.h"

#include "core/errors.h"
#include "core/estimators/kernel_field_model.h"
#include "core/numerics/flushed_exp.h"
#include "core/numerics/gaussian_mixture.h"
#include "core/numerics/mixture_inversion.h"
#include "core/util/text.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <random>
#include <vector>

namespace sosrep {
namespace {

constexpr long long kMaxPairs = 20'000'000;   // SOSREP's pair table (160 MB of doubles)
constexpr long long kMaxComponents = 200'000; // a mixture summed term by term per proposal
constexpr long long kProposalsPerRow = 1000;  // rejection gives up beyond this many
constexpr Eigen::Index kBlock = 1024;         // proposals evaluated together

/// Index k drawn with probability proportional to cumulative[k] - cumulative[k - 1].
Eigen::Index drawIndex(const std::vector<double>& cumulative, std::mt19937_64& rng)
{
    std::uniform_real_distribution<double> u(0.0, cumulative.back());
    const double at = u(rng);
    const auto it = std::upper_bound(cumulative.begin(), cumulative.end(), at);
    return std::min<Eigen::Index>(Eigen::Index(it - cumulative.begin()),
                                  Eigen::Index(cumulative.size()) - 1);
}

std::vector<double> cumulativeOf(const Vector& weights)
{
    std::vector<double> c(size_t(weights.size()));
    double total = 0.0;
    for (Eigen::Index k = 0; k < weights.size(); ++k) {
        total += std::max(0.0, weights(k));
        c[size_t(k)] = total;
    }
    return c;
}

void refuseGivingUp(long long proposals, Eigen::Index n)
{
    if (proposals > kProposalsPerRow * std::max<Eigen::Index>(n, 1)) {
        throw ParameterError("sample", "rejection sampling kept fewer than 1 in " +
                                           std::to_string(kProposalsPerRow) +
                                           " proposals: the model's weights cancel too much");
    }
}

/// exp(-|y_r - x_i|^2 / 2 l^2) for the rows of y against the centres x.
Matrix gaussianKernel(const MatrixRef& y, const Matrix& centres, double l)
{
    const Vector yy = y.rowwise().squaredNorm();
    const Vector cc = centres.rowwise().squaredNorm();
    Matrix d2 = -2.0 * (y * centres.transpose());
    d2.colwise() += yy;
    d2.rowwise() += cc.transpose();
    Matrix k = (-d2.array().max(0.0) / (2.0 * l * l)).exp().matrix();
    flushSubnormalEntries(k);
    return k;
}

ModelSample sampleKde(const Matrix& centres, const Vector& c, double l, Eigen::Index n,
                      std::mt19937_64& rng)
{
    const std::vector<double> cumulative = cumulativeOf(c);
    std::normal_distribution<double> z;
    ModelSample s;
    s.rows.resize(n, centres.cols());
    for (Eigen::Index r = 0; r < n; ++r) {
        const Eigen::Index i = drawIndex(cumulative, rng);
        for (Eigen::Index j = 0; j < centres.cols(); ++j) {
            s.rows(r, j) = centres(i, j) + l * z(rng);
        }
    }
    s.method = "exact: a row's kernel by its weight";
    s.proposals = n;
    return s;
}

/// Rejection from g^2; nothing when it would keep fewer than 1 in kProposalsPerRow proposals
/// (the share is known before drawing: the masses of f^2 and g^2 over that of g^2).
std::optional<ModelSample> sampleSquaredField(const Matrix& centres, const Vector& c, double l,
                                              Eigen::Index n, std::mt19937_64& rng)
{
    const Eigen::Index m = centres.rows();
    if (quadraticFormComponents(m) > kMaxPairs) {
        throw ParameterError("sample", "the model has " + std::to_string(m) +
                                           " centres: its pair table would exceed " +
                                           std::to_string(kMaxPairs) +
                                           " entries (fit with --rank to sample)");
    }
    // The pairs p <= q of g^2 with their weights (p < q twice: the pair and its mirror).
    std::vector<double> cumulative;
    std::vector<std::pair<Eigen::Index, Eigen::Index>> pairs;
    cumulative.reserve(size_t(quadraticFormComponents(m)));
    pairs.reserve(cumulative.capacity());
    double total = 0.0, signedTotal = 0.0;
    for (Eigen::Index p = 0; p < m; ++p) {
        for (Eigen::Index q = p; q < m; ++q) {
            const double d2 = (centres.row(p) - centres.row(q)).squaredNorm();
            const double w = (p == q ? 1.0 : 2.0) * c(p) * c(q) * std::exp(-d2 / (4.0 * l * l));
            total += std::abs(w);
            signedTotal += w;
            cumulative.push_back(total);
            pairs.emplace_back(p, q);
        }
    }
    if (!(signedTotal * double(kProposalsPerRow) >= total)) {
        return std::nullopt;
    }
    const Vector magnitude = c.cwiseAbs();
    std::normal_distribution<double> z;
    std::uniform_real_distribution<double> u(0.0, 1.0);
    ModelSample s;
    s.rows.resize(n, centres.cols());
    Eigen::Index kept = 0;
    const double spread = l / std::sqrt(2.0);
    while (kept < n) {
        Matrix block(kBlock, centres.cols());
        for (Eigen::Index r = 0; r < kBlock; ++r) {
            const auto [p, q] = pairs[size_t(drawIndex(cumulative, rng))];
            for (Eigen::Index j = 0; j < centres.cols(); ++j) {
                block(r, j) = 0.5 * (centres(p, j) + centres(q, j)) + spread * z(rng);
            }
        }
        const Matrix k = gaussianKernel(block, centres, l);
        const Vector f = k * c;
        const Vector g = k * magnitude;
        for (Eigen::Index r = 0; r < kBlock && kept < n; ++r) {
            ++s.proposals;
            const double ratio = g(r) > 0.0 ? f(r) / g(r) : 0.0;
            if (u(rng) < ratio * ratio) {
                s.rows.row(kept++) = block.row(r);
            }
        }
        refuseGivingUp(s.proposals, n);
    }
    s.method = "exact: rejection from the squared field of |weights|";
    return s;
}

ModelSample sampleMixture(const GaussianMixture& g, Eigen::Index n, std::mt19937_64& rng)
{
    const bool signedWeights = (g.weights.array() < 0.0).any();
    // A rejected proposal costs one pass over the components, a row drawn by conditionals
    // about 30 d passes: below that share kept, the conditionals are cheaper (and where the
    // weights cancel a millionfold, the only way).
    const double acceptance = signedWeights ? positivePartAcceptance(g) : 1.0;
    if (acceptance < 1.0 / (30.0 * g.dim())) {
        ModelSample s;
        s.rows = sampleByConditionals(g, n, rng);
        s.proposals = n;
        s.method = "exact: each coordinate from its conditional, by inverting its CDF "
                   "(rejection from the positive part would keep 1 in " +
                   numberText(1.0 / acceptance, 3) + ")";
        return s;
    }
    const std::vector<double> cumulative = cumulativeOf(g.weights);
    GaussianMixture positive = g;
    positive.weights = g.weights.cwiseMax(0.0);
    std::normal_distribution<double> z;
    std::uniform_real_distribution<double> u(0.0, 1.0);
    ModelSample s;
    s.rows.resize(n, g.dim());
    Eigen::Index kept = 0;
    while (kept < n) {
        Matrix block(signedWeights ? kBlock : n - kept, g.dim());
        for (Eigen::Index r = 0; r < block.rows(); ++r) {
            const Eigen::Index k = drawIndex(cumulative, rng);
            const double sd = std::sqrt(g.variances(k));
            for (Eigen::Index j = 0; j < g.dim(); ++j) {
                block(r, j) = g.centres(k, j) + sd * z(rng);
            }
        }
        const Vector p = signedWeights ? mixtureDensity(g, block) : Vector();
        const Vector pp = signedWeights ? mixtureDensity(positive, block) : Vector();
        for (Eigen::Index r = 0; r < block.rows() && kept < n; ++r) {
            ++s.proposals;
            if (!signedWeights || (pp(r) > 0.0 && u(rng) < std::max(0.0, p(r)) / pp(r))) {
                s.rows.row(kept++) = block.row(r);
            }
        }
        refuseGivingUp(s.proposals, n);
    }
    s.method = signedWeights ? "exact: rejection from the mixture's positive part"
                             : "exact: a mixture component by its weight";
    return s;
}

} // namespace

ModelSample sampleModel(const FittedModel& model, Eigen::Index n, uint64_t seed)
{
    if (n < 0) {
        throw ParameterError("sample", "the number of rows must not be negative");
    }
    if (model.kind() != DensityKind::Normalized && model.kind() != DensityKind::PreDensity) {
        throw ParameterError("sample", "a " + model.estimator() + " model gives " +
                                           toString(model.kind()) +
                                           ", not a density: there is nothing to sample");
    }
    std::mt19937_64 rng(seed);
    const KernelFieldModel* field = model.kernelField();
    const KernelOperator* kernel = model.kernel();
    Matrix centres;
    Vector c;
    if (field && kernel && kernel->spec().type == KernelType::Gaussian &&
        kernel->fieldAsKernelSum(field->weights(), &centres, &c)) {
        const double l = kernel->spec().lengthScale;
        if (field->power() == 1.0 && (c.array() >= 0.0).all()) {
            return sampleKde(centres, c, l, n, rng);
        }
        if (field->power() == 2.0) {
            if (std::optional<ModelSample> s = sampleSquaredField(centres, c, l, n, rng)) {
                return *s;
            } // the weights cancel: by the mixture's conditionals, below
        }
    }
    const long long components = model.mixtureComponents();
    if (components > 0 && components <= kMaxComponents) {
        return sampleMixture(model.gaussianMixture(), n, rng);
    }
    const std::string why =
        kernel && kernel->spec().type != KernelType::Gaussian
            ? "its kernel is " + toString(kernel->spec().type) + ", not Gaussian"
        : components > kMaxComponents ? "its mixture has too many components to sum"
                                      : "it is not a Gaussian mixture";
    throw ParameterError("sample", "a " + model.estimator() + " model cannot be sampled exactly: " +
                                       why + " (sampling needs the Gaussian kernel)");
}

} // namespace sosrep
