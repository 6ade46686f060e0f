// SPDX-License-Identifier: MIT
// Kernel sums-of-squares densities fitted by MMD, as a plug-in.
#pragma once

#include "core/estimators/estimator.h"

#include <memory>

namespace sosrep {

/// Kernel sums-of-squares density fitted by MMD (Muzellec, Bach & Rudi; seed 004): p = k(x)^T B
/// k(x) over m support points, B >= 0, Tr(BW) = 1, by FISTA on the spectraplex (SosMmdSolver).
/// Gaussian kernel only (W and u are closed forms for it). Options: lambda, regularizer,
/// support (m), jitter, iterations, tolerance, objective.
std::unique_ptr<Estimator> makeSosMmdEstimator();

} // namespace sosrep
