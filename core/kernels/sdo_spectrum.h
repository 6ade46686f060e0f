// SPDX-License-Identifier: MIT
// The SDO kernel's spectral density and sampling of its frequencies.
#pragma once

#include "core/random.h"

#include <vector>

namespace sosrep {

/// The spectral side of the SDO kernel for a = 1 (arXiv eq. 11):
/// w(z) = 1 / (1 + (2 pi |z|)^(2m)), g(0) = integral of w over R^d, and the radial density
/// zeta(r) proportional to r^(d-1) w(r) (eq. 54) from which random Fourier features draw |z|.
/// Other a follow by Prop. 7: radii scale by a^(-1/(2m)) = 1/l.
class SdoSpectrum
{
public:
    SdoSpectrum(int dim, int order);

    /// Draws `count` radii from zeta by inverse CDF on a fine grid in t = log(2 pi r) (20000
    /// points; the tail mass left out beyond the grid is below 1e-7 on each side).
    std::vector<double> sampleRadii(int count, Rng& rng) const;

    int dim() const { return m_dim; }
    int order() const { return m_order; }

private:
    int m_dim;
    int m_order;
    std::vector<double> m_t;   // grid in t = log(2 pi r)
    std::vector<double> m_cdf; // normalized cumulative mass at each grid point
};

} // namespace sosrep
