// SPDX-License-Identifier: MIT
// Gaussian shifts with known ratios, for tests and benchmarks.
#include "core/ratio/known_shifts.h"

#include "core/random.h"

#include <cmath>

namespace sosrep {

Matrix GaussianShift::sampleP(Eigen::Index rows, uint64_t seed) const
{
    Rng rng(seed);
    Matrix x(rows, dim);
    for (Eigen::Index i = 0; i < rows; ++i) {
        for (int j = 0; j < dim; ++j) {
            x(i, j) = rng.normal();
        }
    }
    return x;
}

Matrix GaussianShift::sampleQ(Eigen::Index rows, uint64_t seed) const
{
    Matrix x = sampleP(rows, seed);
    for (Eigen::Index i = 0; i < rows; ++i) {
        for (int j = 0; j < shifted; ++j) {
            x(i, j) = (j == 0 ? mean : 0.0) + stddev * x(i, j);
        }
    }
    return x;
}

Vector GaussianShift::ratio(const MatrixRef& x) const
{
    Vector r = Vector::Ones(x.rows());
    const double s2 = stddev * stddev;
    for (Eigen::Index i = 0; i < x.rows(); ++i) {
        double log = 0.0;
        for (int j = 0; j < shifted; ++j) {
            const double mu = j == 0 ? mean : 0.0;
            const double v = x(i, j);
            log += -std::log(stddev) - (v - mu) * (v - mu) / (2.0 * s2) + 0.5 * v * v;
        }
        r(i) = std::exp(log);
    }
    return r;
}

double GaussianShift::ratioSecondMoment() const
{
    const double s2 = stddev * stddev;
    const double a = 1.0 / s2 - 0.5;
    const double pi = 3.14159265358979323846;
    double m = 1.0;
    for (int j = 0; j < shifted; ++j) {
        const double mu = j == 0 ? mean : 0.0;
        m *= 1.0 / (std::sqrt(2.0 * pi) * s2) * std::sqrt(pi / a) *
             std::exp(mu * mu / (s2 * s2 * a) - mu * mu / s2);
    }
    return m;
}

std::string GaussianShift::name() const
{
    return std::to_string(dim) + "-D (" + std::to_string(shifted) + " shifted)";
}

double normalizedSquaredError(const Vector& f, const Vector& r)
{
    return (f - r).squaredNorm() / r.squaredNorm();
}

} // namespace sosrep
