// SPDX-License-Identifier: MIT
// Gaussian mixtures: their density and quadratic forms, for closed-form checks.
#include "core/numerics/gaussian_mixture.h"

#include "core/numerics/distances.h"
#include "core/numerics/flushed_exp.h"

#include <cmath>

namespace sosrep {

GaussianMixture GaussianMixture::atoms(const MatrixRef& x)
{
    return equalWeights(x, 0.0);
}

GaussianMixture GaussianMixture::equalWeights(const MatrixRef& centres, double variance)
{
    GaussianMixture g;
    g.centres = centres;
    g.weights = Vector::Constant(centres.rows(), 1.0 / static_cast<double>(centres.rows()));
    g.variances = Vector::Constant(centres.rows(), variance);
    return g;
}

GaussianMixture quadraticFormMixture(const MatrixRef& centres, const Matrix& q, double lengthScale,
                                     double logScale)
{
    const Eigen::Index m = centres.rows();
    const double d = static_cast<double>(centres.cols());
    const double l2 = lengthScale * lengthScale;
    const Matrix d2 = squaredDistances(centres, centres);
    const double logW0 = logScale + 0.5 * d * std::log(M_PI * l2);
    GaussianMixture g;
    const Eigen::Index k = static_cast<Eigen::Index>(quadraticFormComponents(m));
    g.centres.resize(k, centres.cols());
    g.weights.resize(k);
    g.variances = Vector::Constant(k, 0.5 * l2);
    Eigen::Index c = 0;
    for (Eigen::Index p = 0; p < m; ++p) {
        for (Eigen::Index r = p; r < m; ++r, ++c) {
            g.centres.row(c) = 0.5 * (centres.row(p) + centres.row(r));
            // Computed in logs: (pi l^2)^(d/2) alone over- or underflows in high dimension.
            const double w = std::exp(logW0 - d2(p, r) / (4.0 * l2));
            g.weights(c) = (p == r ? 1.0 : 2.0) * q(p, r) * w;
        }
    }
    return g;
}

Vector mixtureDensity(const GaussianMixture& mixture, const MatrixRef& y)
{
    const double d = static_cast<double>(y.cols());
    const Matrix d2 = squaredDistances(y, mixture.centres);
    Vector out = Vector::Zero(y.rows());
    for (Eigen::Index k = 0; k < mixture.size(); ++k) {
        const double v = mixture.variances(k);
        const double norm = std::pow(2.0 * M_PI * v, -0.5 * d);
        out += mixture.weights(k) * norm * flushedExp(d2.col(k) * (-0.5 / v));
    }
    return out;
}

} // namespace sosrep
