// SPDX-License-Identifier: MIT
// The SDO kernel's radial profile and its derivatives, from its spectrum.
#pragma once

#include "core/numerics/uniform_spline.h"

#include <cmath>

#include <memory>

namespace sosrep {

/// The exact SDO kernel for a = 1 as a radial profile (design.md section 2, back-end 2):
/// k^1(x, y) = g(|x - y|) with g(r) = integral over R^d of cos(2 pi <z, x>) / (1 + (2 pi
/// |z|)^(2m)). Stored normalized, g(r) / g(0), so that nothing over- or underflows up to d in the
/// thousands; Prop. 7 gives every other a: k^a(x, y) = l^(-d) g(|x - y| / l), l = a^(1/(2m)).
///
/// How it is computed. With u = 2 pi |z| and the angular average
/// Omega_d(s) = E_theta[cos(s theta_1)] over the unit sphere,
///     g(r) = (2 pi)^(-d) |S^(d-1)| E_t[H(r |t|)],   H(s) = int_0^inf u^(d-1) cos(u s) / (1 +
///     u^(2m)) du,
/// where t = theta_1 has density proportional to (1 - t^2)^((d-3)/2). H is the 1-D cosine transform
/// of a rational function, which decays only like u^(-2) - too slowly to integrate directly to
/// 1e-6. It is done exactly instead: for odd d by residues in the upper half plane,
///     H(s) = Re[-(pi i / (2m)) sum_k p_k^d e^(i p_k s)],   p_k = e^(i pi (2k + 1) / (2m)),
/// and for even d by turning the half line onto the ray arg u = beta = pi floor(m/2) / m that lies
/// between two poles (there u^(2m) is real, and e^(i u s) decays exponentially), plus the residues
/// of the poles passed on the way. H is tabulated on a grid uniform in q = sqrt(s) (the profile's
/// non-smooth point at 0 becomes smooth in q) and the expectation over t = sin(theta) is a
/// Gauss-Legendre rule in theta with weight cos(theta)^(d-2), cut where that weight is below 1e-18.
class SdoProfile
{
public:
    SdoProfile(int dim, int order);

    /// The profile for (d, m), built once per process and shared (thread-safe).
    static std::shared_ptr<const SdoProfile> get(int dim, int order);

    int dim() const { return m_dim; }
    int order() const { return m_order; }
    /// log g(0) (closed form, see sdoLogG0()).
    double logG0() const { return m_logG0; }
    /// Radius beyond which g / g(0) is taken as 0 (below 1e-15 there).
    double maxRadius() const { return m_q.end() * m_q.end(); }

    /// g(rho) / g(0).
    double value(double rho) const { return m_q.value(std::sqrt(rho)); }

    /// g / g(0) at rho with dg/drho / g(0) and d2g/drho2 / g(0) (from the tabulated spline in q;
    /// rho is floored at 1e-12 because the radial derivatives of a kernel with a cusp blow up).
    void derivatives(double rho, double& value, double& first, double& second) const;

    /// H(s) / H(0) from the table (exposed for tests).
    double cosineTransform(double s) const { return m_h.value(std::sqrt(s)); }

private:
    int m_dim;
    int m_order;
    double m_logG0;
    UniformSpline m_h; // H(q^2) / H(0)
    UniformSpline m_q; // g(q^2) / g(0)
};

/// log g(0) for a = 1: |S^(d-1)| (2 pi)^(-d) pi / (2m sin(pi d / (2m))).
double sdoLogG0(int dim, int order);

} // namespace sosrep
