// SPDX-License-Identifier: MIT
// Hutchinson estimates of the Fisher divergence's terms, with invalid rows marked.
#pragma once

#include "core/estimators/estimator.h"

#include <functional>

namespace sosrep {

/// The score grad log p at the rows of its argument.
using ScoreFn = std::function<Matrix(const MatrixRef&)>;

/// Hyvaerinen terms tr grad s + 1/2 |s|^2 with the trace by the paper's Hutchinson finite
/// differences (Alg. 1): eps^T (s(y + h eps) - s(y)) / h over Rademacher probes eps, with
/// h = config.step * lengthScale. Non-finite terms are counted in *invalid and left +inf.
Vector hutchinsonFisherTerms(const ScoreFn& score, const MatrixRef& y,
                             const HutchinsonConfig& config, double lengthScale, int* invalid);

/// Replaces the non-finite entries of `terms` by +inf and returns how many there were.
int markInvalidTerms(Vector& terms);

} // namespace sosrep
