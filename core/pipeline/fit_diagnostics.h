// SPDX-License-Identifier: MIT
// Warnings about a fit: grid edge, degenerate length scale, ratio reach.
#pragma once

#include "core/estimators/estimator.h"
#include "core/estimators/ratio_model.h"
#include "core/tuning/length_scale_search.h"

#include <string>
#include <vector>

namespace sosrep {

/// What the fit route says about a fit it keeps (every front end shows these warnings) or
/// refuses: a solver that stopped early or clamped, an estimator's own warnings, a length scale
/// the kernel cannot use, a tuned value at the edge of its grid, a ratio whose weights underflow.
/// `kernel` null for estimators without one, `search` null when l was not tuned.
void diagnoseFit(const FittedModel& model, const Matrix& train, const KernelSpec* kernel,
                 const SearchResult* search, std::vector<std::string>& warnings);

/// A length scale at which the kernel sees no neighbours, or nothing but neighbours: the fit
/// runs, but its scores measure something else than a density (the kernel matrix is nearly the
/// identity, or nearly all ones). `spacing`: the rows' median nearest-neighbour distance.
void warnDegenerateLengthScale(const Matrix& x, const KernelSpec& kernel, double spacing,
                               std::vector<std::string>& warnings);

/// A density ratio whose kernel of variance t cannot reach from one row to the next: its weights
/// are sums of underflowed kernels. Refused (ParameterError "t") when every weight at the p
/// rows underflows (nothing was estimated), warned when the kernel between neighbours is below
/// 1e-6.
void checkRatioReach(const RatioModel& ratio, const Matrix& p, std::vector<std::string>& warnings);

/// A tuned length scale at the first or last point of its grid: the curve may go on falling
/// beyond it, and the choice is the grid's, not the data's.
void warnAtGridEdge(const SearchResult& r, std::vector<std::string>& warnings);

} // namespace sosrep
