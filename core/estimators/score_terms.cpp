// SPDX-License-Identifier: MIT
// Hutchinson estimates of the Fisher divergence's terms, with invalid rows marked.
#include "core/estimators/score_terms.h"

#include "core/errors.h"
#include "core/random.h"

#include <cmath>
#include <limits>

namespace sosrep {

int markInvalidTerms(Vector& terms)
{
    int bad = 0;
    for (Eigen::Index i = 0; i < terms.size(); ++i) {
        if (!std::isfinite(terms(i))) {
            terms(i) = std::numeric_limits<double>::infinity();
            ++bad;
        }
    }
    return bad;
}

Vector hutchinsonFisherTerms(const ScoreFn& score, const MatrixRef& y,
                             const HutchinsonConfig& config, double lengthScale, int* invalid)
{
    if (config.probes < 1) {
        throw ParameterError("fd_probes", "must be at least 1");
    }
    if (!(config.step > 0.0)) {
        throw ParameterError("fd_step", "must be positive");
    }
    const double h = config.step * lengthScale;
    const Matrix s0 = score(y);
    Vector trace = Vector::Zero(y.rows());
    Rng rng(config.seed);
    for (int k = 0; k < config.probes; ++k) {
        Matrix eps(y.rows(), y.cols());
        for (Eigen::Index i = 0; i < eps.size(); ++i) {
            eps.data()[i] = rng.uniform() < 0.5 ? -1.0 : 1.0;
        }
        const Matrix s1 = score(y + h * eps);
        trace += ((s1 - s0).cwiseProduct(eps)).rowwise().sum() / h;
    }
    trace /= config.probes;
    Vector terms = trace + 0.5 * s0.rowwise().squaredNorm();
    const int bad = markInvalidTerms(terms);
    if (invalid) {
        *invalid = bad;
    }
    return terms;
}

} // namespace sosrep
