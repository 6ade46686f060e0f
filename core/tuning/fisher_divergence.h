// SPDX-License-Identifier: MIT
// Fisher-divergence estimators and their names.
#pragma once

#include <string>

namespace sosrep {

enum class FdEstimator
{
    Analytic,        // closed-form gradient and Laplacian of the kernel sums
    FiniteDifference // the paper's Hutchinson finite-difference trace (Alg. 1 / 6)
};
std::string toString(FdEstimator e);
FdEstimator fdEstimatorFromString(const std::string& text); // ParameterError("fd_estimator")

} // namespace sosrep
