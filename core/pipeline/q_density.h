// SPDX-License-Identifier: MIT
// Type II's q when q is known only by a sample: the density of an estimator fitted to it.
#pragma once

#include "core/types.h"

#include <string>
#include <vector>

namespace sosrep {

/// The estimators whose values are a density (normalized or up to a constant), which q's
/// density may be: not a detector's score, not a ratio.
std::vector<std::string> qDensityEstimators();
/// Throws ParameterError("q-density") naming the choices when `estimator` is not one of them.
void checkQDensityEstimator(const std::string& estimator);

/// q at the rows of p: the density of `estimator` (a density estimator, at its defaults and the
/// ratio fit's `seed`) fitted to q's rows, both samples in p's scaled coordinates, so q is per
/// unit of those coordinates, where the ratio is fitted. One route for `sosrep ratio
/// --q-density`, the app's Ratio view and Python's fit(X, Y, q_density=...). A pre-density
/// (SOSREP with the Laplace or SDO kernel) is q up to a constant, and so is the ratio (paper
/// section 3.6). Checks the name first (checkQDensityEstimator).
Vector fittedQDensity(const std::string& estimator, const std::string& seed, const Matrix& qScaled,
                      const Matrix& pScaled);

} // namespace sosrep
