// SPDX-License-Identifier: MIT
// The FIRE density-ratio estimator as a plug-in.
#pragma once

#include "core/estimators/estimator.h"

#include <memory>

namespace sosrep {

/// FIRE (Que & Belkin): the density ratio q/p as the Tikhonov-regularized solution of a
/// Fredholm equation, Type I (a sample of q) or Type II (q known at the p rows), tuned by the
/// paper's unsupervised J criterion (digest sections 1, 2, 5).
std::unique_ptr<Estimator> makeFireEstimator();

/// The exact form up to this many p rows; random features above (FIRE's "auto" form).
constexpr int kFireExactRows = 2000;

} // namespace sosrep
