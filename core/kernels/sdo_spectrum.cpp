// SPDX-License-Identifier: MIT
// The SDO kernel's spectral density and sampling of its frequencies.
#include "core/kernels/sdo_spectrum.h"

#include <algorithm>
#include <cmath>

namespace sosrep {

SdoSpectrum::SdoSpectrum(int dim, int order) : m_dim(dim), m_order(order)
{
    const double d = dim;
    const double m2 = 2.0 * order;
    // In t = log u, u = 2 pi r, the radial density is q(t) ~ e^(d t) / (1 + e^(2m t)): a smooth
    // bump with exponential tails e^(d t) (left) and e^(-(2m - d) t) (right), whose mode is at
    // e^(2m t*) = d / (2m - d). Cut each tail where its mass is ~1e-8 of the peak region.
    const double k = m2 - d;
    const double tStar = std::log(d / k) / m2;
    const double tLo = tStar - (std::log(1e8) + 3.0) / d;
    const double tHi = tStar + (std::log(1e8) + 3.0) / k;
    const int points = 20000;
    m_t.resize(points);
    m_cdf.resize(points);
    auto logq = [&](double t) {
        const double e = m2 * t;
        const double log1pe = e > 30 ? e + std::log1p(std::exp(-e)) : std::log1p(std::exp(e));
        return d * t - log1pe;
    };
    const double logqMax = logq(tStar);
    double prev = 0.0;
    for (int i = 0; i < points; ++i) {
        m_t[i] = tLo + (tHi - tLo) * i / (points - 1);
        const double q = std::exp(logq(m_t[i]) - logqMax);
        m_cdf[i] = i == 0 ? 0.0 : m_cdf[i - 1] + 0.5 * (prev + q) * (m_t[i] - m_t[i - 1]);
        prev = q;
    }
    const double total = m_cdf.back();
    for (double& c : m_cdf) {
        c /= total;
    }
}

std::vector<double> SdoSpectrum::sampleRadii(int count, Rng& rng) const
{
    std::vector<double> r(static_cast<size_t>(count));
    for (double& ri : r) {
        const double u = rng.uniform();
        const auto it = std::upper_bound(m_cdf.begin(), m_cdf.end(), u);
        const size_t j =
            std::clamp<size_t>(static_cast<size_t>(it - m_cdf.begin()), 1, m_cdf.size() - 1);
        const double w = (u - m_cdf[j - 1]) / std::max(m_cdf[j] - m_cdf[j - 1], 1e-300);
        const double t = m_t[j - 1] + w * (m_t[j] - m_t[j - 1]);
        ri = std::exp(t) / (2.0 * M_PI);
    }
    return r;
}

} // namespace sosrep
