// SPDX-License-Identifier: MIT
// Exact draws from a signed Gaussian mixture by inverting each coordinate's conditional CDF.
#include "core/numerics/mixture_inversion.h"

#include "core/errors.h"
#include "core/util/text.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace sosrep {
namespace {

constexpr double kMaxCancellation = 1e10; // sum |a| / sum a beyond which a CDF has no digits
constexpr int kMaxSteps = 200;            // Newton and bisection steps per coordinate

/// One coordinate's conditional: weights a_k (scaled so the largest magnitude is 1), the
/// components' means in this coordinate and their standard deviations.
struct Conditional
{
    const double* mean; // column j of the centres
    const Vector& sd;
    std::vector<double> a;
    double total = 0.0;

    /// F(x) - u and the density f(x) (both divided by the total weight).
    void at(double x, double u, double* residual, double* density) const
    {
        double cdf = 0.0, pdf = 0.0;
        for (size_t k = 0; k < a.size(); ++k) {
            if (a[k] == 0.0) {
                continue;
            }
            const double z = (x - mean[k]) / sd(Eigen::Index(k));
            cdf += a[k] * 0.5 * std::erfc(-z * M_SQRT1_2);
            pdf += a[k] * std::exp(-0.5 * z * z) / (sd(Eigen::Index(k)) * std::sqrt(2.0 * M_PI));
        }
        *residual = cdf / total - u;
        *density = pdf / total;
    }
};

/// The x in [lo, hi] where F(x) = u: Newton's step where it stays inside the bracket, else
/// the bracket's middle; the bracket shrinks on the side F says.
double invert(const Conditional& c, double u, double lo, double hi)
{
    double x = 0.5 * (lo + hi);
    for (int step = 0; step < kMaxSteps && hi - lo > 1e-12 * (1.0 + std::abs(x)); ++step) {
        double r = 0.0, f = 0.0;
        c.at(x, u, &r, &f);
        if (r == 0.0) {
            return x;
        }
        (r < 0.0 ? lo : hi) = x;
        const double newton = f > 0.0 ? x - r / f : std::numeric_limits<double>::quiet_NaN();
        x = newton > lo && newton < hi ? newton : 0.5 * (lo + hi);
    }
    return x;
}

} // namespace

double positivePartAcceptance(const GaussianMixture& g)
{
    const double positive = g.weights.cwiseMax(0.0).sum();
    return positive > 0.0 ? std::max(0.0, g.weights.sum()) / positive : 0.0;
}

Matrix sampleByConditionals(const GaussianMixture& g, Eigen::Index n, std::mt19937_64& rng)
{
    const Eigen::Index m = g.size();
    const int d = g.dim();
    if (m == 0 || !(g.variances.array() > 0.0).all()) {
        throw ParameterError("sample", "the mixture needs components of positive variance");
    }
    const Vector sd = g.variances.cwiseSqrt(); // g.centres is column-major: column j contiguous
    // Each coordinate's reach: 40 standard deviations beyond every mean, where Phi is 0 or 1.
    const Vector lo = (g.centres.colwise().minCoeff().array() - 40.0 * sd.maxCoeff());
    const Vector hi = (g.centres.colwise().maxCoeff().array() + 40.0 * sd.maxCoeff());
    std::uniform_real_distribution<double> uniform(0.0, 1.0);
    Matrix rows(n, d);
    std::vector<double> logWeight(static_cast<size_t>(m));
    std::vector<double> sign(static_cast<size_t>(m));
    for (Eigen::Index r = 0; r < n; ++r) {
        for (Eigen::Index k = 0; k < m; ++k) {
            const double w = g.weights(k);
            logWeight[size_t(k)] =
                w == 0.0 ? -std::numeric_limits<double>::infinity() : std::log(std::abs(w));
            sign[size_t(k)] = w < 0.0 ? -1.0 : 1.0;
        }
        for (int j = 0; j < d; ++j) {
            Conditional c{g.centres.col(j).data(), sd, std::vector<double>(size_t(m)), 0.0};
            const double top = *std::max_element(logWeight.begin(), logWeight.end());
            double magnitude = 0.0;
            for (Eigen::Index k = 0; k < m; ++k) {
                c.a[size_t(k)] = sign[size_t(k)] * std::exp(logWeight[size_t(k)] - top);
                c.total += c.a[size_t(k)];
                magnitude += std::abs(c.a[size_t(k)]);
            }
            if (!(c.total > 0.0) || magnitude > kMaxCancellation * c.total) {
                throw ParameterError(
                    "sample", "the model's mixture weights cancel " +
                                  (c.total > 0.0 ? numberText(magnitude / c.total, 3) + "-fold"
                                                 : std::string("to nothing")) +
                                  " at coordinate " + std::to_string(j + 1) +
                                  ": no digits of its distribution are left to draw from");
            }
            const double x = invert(c, uniform(rng), lo(j), hi(j));
            rows(r, j) = x;
            for (Eigen::Index k = 0; k < m; ++k) { // times N(x; mu_kj, v_k)
                const double z = (x - g.centres(k, j)) / sd(k);
                logWeight[size_t(k)] += -0.5 * z * z - std::log(sd(k));
            }
        }
    }
    return rows;
}

} // namespace sosrep
