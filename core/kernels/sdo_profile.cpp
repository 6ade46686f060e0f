// SPDX-License-Identifier: MIT
// The SDO kernel's radial profile and its derivatives, from its spectrum.
#include "core/kernels/sdo_profile.h"

#include "core/numerics/gauss_legendre.h"
#include "core/util/float_mode.h"
#include "core/util/parallel_failure.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>
#include <utility>

namespace sosrep {
namespace {

constexpr int kTableSize = 4097;       // nodes in q = sqrt(r); spacing ~2e-3 for r up to 64
constexpr double kTailExponent = 46.0; // e^-46 = 1e-20: terms below it are dropped
constexpr int kPanelNodes = 16;

/// int_0^inf u^(d-1) / (1 + u^(2m)) du = pi / (2m sin(pi d / (2m))).
double cosineTransformAtZero(int d, int m)
{
    return M_PI / (2.0 * m * std::sin(M_PI * d / (2.0 * m)));
}

/// Sum over poles p_k = e^(i phi_k), phi_k = pi (2k + 1) / (2m) < phiLimit, of
/// e^(-s sin phi_k) sin(d phi_k + s cos phi_k): the real part of -i p_k^d e^(i p_k s).
double residueSum(int d, int m, double s, double phiLimit)
{
    double sum = 0.0;
    for (int k = 0; k < m; ++k) {
        const double phi = M_PI * (2.0 * k + 1.0) / (2.0 * m);
        if (phi >= phiLimit) {
            break;
        }
        const double decay = s * std::sin(phi);
        if (decay > kTailExponent) {
            continue;
        }
        sum += std::exp(-decay) * std::sin(d * phi + s * std::cos(phi));
    }
    return sum;
}

/// Nodes and weights in x = log y for the ray integral of even d, with the weight already
/// multiplied by rho(x) = e^(d x) / (1 + e^(2m x)). Panels are narrow (pi / (4m), doubling) next
/// to x = 0, where the poles of rho sit at distance pi / (2m) from the real axis, and at most
/// `fine` wide where the factor e^(-s e^x sin beta) of some tabulated s turns from 1 to 0.
struct RayNodes
{
    std::vector<double> x;
    std::vector<double> weight;
};

RayNodes rayNodes(int d, int m, double xLo, double xHi, double fineLo, double fineHi)
{
    const double fine = 0.25;
    std::vector<double> breaks{0.0};
    auto grow = [&](double direction, double limit) {
        double at = 0.0;
        double width = M_PI / (4.0 * m);
        while (direction * at < direction * limit) {
            // Cap the width where the panel would overlap [fineLo, fineHi].
            const double lo = std::min(at, at + direction * fine);
            const double hi = std::max(at, at + direction * fine);
            width = std::min(width, hi > fineLo && lo < fineHi ? fine : 2.0);
            at += direction * width;
            breaks.push_back(at);
            width *= 2.0;
        }
    };
    grow(1.0, xHi);
    grow(-1.0, xLo);
    std::sort(breaks.begin(), breaks.end());
    const QuadratureRule unit = gaussLegendre(kPanelNodes, 0.0, 1.0);
    RayNodes nodes;
    for (size_t p = 0; p + 1 < breaks.size(); ++p) {
        const double a = breaks[p];
        const double width = breaks[p + 1] - a;
        for (int i = 0; i < kPanelNodes; ++i) {
            const double x = a + width * unit.nodes[static_cast<size_t>(i)];
            // rho(x) written so that neither exponential overflows.
            const double rho = x > 0.0
                                   ? std::exp((d - 2.0 * m) * x) / (1.0 + std::exp(-2.0 * m * x))
                                   : std::exp(d * x) / (1.0 + std::exp(2.0 * m * x));
            nodes.x.push_back(x);
            nodes.weight.push_back(width * unit.weights[static_cast<size_t>(i)] * rho);
        }
    }
    return nodes;
}

/// H(s_j) / H(0) on the grid s_j = (j h)^2.
std::vector<double> tabulateCosineTransform(int d, int m, double h)
{
    const double h0 = cosineTransformAtZero(d, m);
    std::vector<double> out(kTableSize);
    if (d % 2 == 1) {
        // Residues of the whole upper half plane (the integrand is even in u).
        const double scale = M_PI / (2.0 * m) / h0;
        ParallelFailure failure;
#pragma omp parallel
        {
            const FlushSubnormalsScope subnormalsFlushed;
#pragma omp for schedule(dynamic, 64)
            for (int j = 0; j < kTableSize; ++j) {
                failure.run([&] {
                    const double s = (j * h) * (j * h);
                    out[static_cast<size_t>(j)] = scale * residueSum(d, m, s, M_PI);
                });
            }
        }
        failure.rethrow();
        out[0] = 1.0;
        return out;
    }
    // Even d: the ray arg u = beta (u^(2m) real there) plus the residues inside the sector.
    const double beta = M_PI * std::floor(m / 2.0) / m;
    const double sinBeta = std::sin(beta);
    const double cosBeta = std::cos(beta);
    const double sMin = h * h;
    const double sMax = (kTableSize - 1) * h * (kTableSize - 1) * h;
    const double xHi = std::min(std::log(kTailExponent / (sMin * sinBeta)),
                                kTailExponent / std::max(2.0 * m - d, 1.0));
    const double xLo = -kTailExponent / d;
    const RayNodes nodes = rayNodes(d, m, xLo, xHi, -std::log(sMax * sinBeta) - 1.0, xHi);
    const size_t count = nodes.x.size();
    std::vector<double> ex(count);
    for (size_t i = 0; i < count; ++i) {
        ex[i] = std::exp(nodes.x[i]);
    }
    const double phase = d * beta;
    ParallelFailure failure;
#pragma omp parallel
    {
        const FlushSubnormalsScope subnormalsFlushed;
#pragma omp for schedule(dynamic, 64)
        for (int j = 1; j < kTableSize; ++j) {
            failure.run([&] {
                const double s = (j * h) * (j * h);
                const double yCut = kTailExponent / (s * sinBeta);
                double ray = 0.0;
                for (size_t i = 0; i < count && ex[i] <= yCut; ++i) {
                    const double sy = s * ex[i];
                    ray +=
                        nodes.weight[i] * std::exp(-sy * sinBeta) * std::cos(phase + sy * cosBeta);
                }
                out[static_cast<size_t>(j)] = (ray + M_PI / m * residueSum(d, m, s, beta)) / h0;
            });
        }
    }
    failure.rethrow();
    out[0] = 1.0;
    return out;
}

} // namespace

double sdoLogG0(int dim, int order)
{
    const double d = dim;
    const double logSphere = std::log(2.0) + 0.5 * d * std::log(M_PI) - std::lgamma(0.5 * d);
    return logSphere - d * std::log(2.0 * M_PI) + std::log(cosineTransformAtZero(dim, order));
}

SdoProfile::SdoProfile(int dim, int order)
    : m_dim(dim), m_order(order), m_logG0(sdoLogG0(dim, order))
{
    const int d = dim;
    const int m = order;
    // The slowest decay of g comes from the pole nearest the real axis, e^(-r sin(pi / 2m)); for
    // large d the average over directions decays faster, like exp(-r^2 / (2 d)).
    const double rMax =
        std::min(kTailExponent / std::sin(M_PI / (2.0 * m)), 25.0 * std::sqrt(d) + 60.0);
    const double h = std::sqrt(rMax) / (kTableSize - 1);
    m_h = UniformSpline(h, tabulateCosineTransform(d, m, h));

    std::vector<double> g(kTableSize);
    if (d == 1) {
        g = m_h.values(); // Omega_1(s) = cos(s): g is H itself
    } else {
        // t = sin(theta) has density proportional to cos(theta)^(d-2) on [0, pi/2].
        const double thetaMax =
            d == 2 ? M_PI / 2.0 : std::min(M_PI / 2.0, std::acos(std::exp(-41.5 / (d - 2.0))));
        // Panels graded towards theta = 0, where H(r sin theta) falls from 1 over a width ~1/r;
        // each has enough nodes for the oscillations of H (frequency at most 1 in s).
        std::vector<double> nodes;
        std::vector<double> weights;
        double b = thetaMax;
        for (int panel = 0; panel < 24; ++panel) {
            const double a = panel == 23 ? 0.0 : 0.5 * b;
            const double phase = rMax * (std::sin(b) - std::sin(a));
            const QuadratureRule rule =
                gaussLegendre(16 + static_cast<int>(std::ceil(0.7 * phase)), a, b);
            nodes.insert(nodes.end(), rule.nodes.begin(), rule.nodes.end());
            weights.insert(weights.end(), rule.weights.begin(), rule.weights.end());
            b = a;
        }
        const size_t n = nodes.size();
        std::vector<double> weight(n);
        std::vector<double> sinTheta(n);
        double total = 0.0;
        for (size_t k = 0; k < weight.size(); ++k) {
            weight[k] = weights[k] * std::exp((d - 2.0) * std::log(std::cos(nodes[k])));
            sinTheta[k] = std::sin(nodes[k]);
            total += weight[k];
        }
        for (double& w : weight) {
            w /= total; // so that the average of a constant is exact: g(0) / g(0) = 1
        }
        ParallelFailure failure;
#pragma omp parallel
        {
            const FlushSubnormalsScope subnormalsFlushed;
#pragma omp for schedule(dynamic, 64)
            for (int j = 0; j < kTableSize; ++j) {
                failure.run([&] {
                    const double r = (j * h) * (j * h);
                    double sum = 0.0;
                    for (size_t k = 0; k < weight.size(); ++k) {
                        sum += weight[k] * m_h.value(std::sqrt(r * sinTheta[k]));
                    }
                    g[static_cast<size_t>(j)] = sum;
                });
            }
        }
        failure.rethrow();
        g[0] = 1.0;
    }
    // Drop the negligible tail so that evaluations beyond it cost nothing.
    size_t last = g.size() - 1;
    while (last > 8 && std::abs(g[last]) < 1e-16) {
        --last;
    }
    g.resize(std::min(g.size(), last + 2));
    m_q = UniformSpline(h, std::move(g));
}

void SdoProfile::derivatives(double rho, double& value, double& first, double& second) const
{
    // g(rho) = G(q), q = sqrt(rho): g' = G' / (2q), g'' = (G'' - G' / q) / (4 q^2).
    const double q = std::sqrt(std::max(rho, 1e-12));
    double gq = 0.0;
    double gqq = 0.0;
    m_q.derivatives(q, value, gq, gqq);
    first = gq / (2.0 * q);
    second = (gqq - gq / q) / (4.0 * q * q);
}

std::shared_ptr<const SdoProfile> SdoProfile::get(int dim, int order)
{
    static std::mutex mutex;
    static std::map<std::pair<int, int>, std::shared_ptr<const SdoProfile>> cache;
    const std::lock_guard<std::mutex> lock(mutex);
    auto& slot = cache[{dim, order}];
    if (!slot) {
        slot = std::make_shared<const SdoProfile>(dim, order);
    }
    return slot;
}

} // namespace sosrep
