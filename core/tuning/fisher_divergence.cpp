// SPDX-License-Identifier: MIT
// Fisher-divergence estimators and their names.
#include "core/tuning/fisher_divergence.h"

#include "core/errors.h"
#include "core/util/text.h"

namespace sosrep {

std::string toString(FdEstimator e)
{
    return e == FdEstimator::Analytic ? "analytic" : "finite-difference";
}

FdEstimator fdEstimatorFromString(const std::string& text)
{
    if (text == "analytic") {
        return FdEstimator::Analytic;
    }
    if (text == "finite-difference" || text == "hutchinson") {
        return FdEstimator::FiniteDifference;
    }
    throw ParameterError("fd_estimator", "unknown estimator " + quotedText(text) +
                                             " (use analytic or finite-difference)");
}

} // namespace sosrep
