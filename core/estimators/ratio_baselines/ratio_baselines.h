// SPDX-License-Identifier: MIT
// The ratio baselines' make functions (SOSREP plug-in ratio, TiKDE, uLSIF).
#pragma once

#include "core/estimators/estimator.h"

#include <memory>

namespace sosrep {

/// uLSIF with its closed-form leave-one-out choice of (t, lambda): the users' default today.
std::unique_ptr<Estimator> makeUlsifEstimator();
/// TIKDE: KDE_q / max(KDE_p, threshold), the paper's baseline, tuned by the same J criterion.
std::unique_ptr<Estimator> makeTikdeEstimator();
/// The plug-in ratio of two SOSREP fits (Gaussian kernel, so both are normalized densities),
/// each tuned by its own Fisher-divergence rule.
std::unique_ptr<Estimator> makeSosrepRatioEstimator();

} // namespace sosrep
