// SPDX-License-Identifier: MIT
// IsolationForest and kNN as comparison detectors behind the estimator interface.
#pragma once

#include "core/estimators/estimator.h"

#include <memory>

namespace sosrep {

/// Comparison detectors beside the density estimators. Their values are normality scores
/// (DensityKind::Score): the anomaly score is minus the value, as for every estimator.

/// Isolation Forest (Liu, Ting & Zhou 2008): value = -s(x), s = 2^(-E h(x)/c(psi)); scikit-
/// learn's score_samples. Options: trees (100), subsample psi (256); the common seed.
std::unique_ptr<Estimator> makeIsolationForestEstimator();

/// k-nearest-neighbour distance (Ramaswamy et al. 2000; PyOD's KNN "largest"): value = minus
/// the distance to the k-th nearest training row (k = 5), exact.
std::unique_ptr<Estimator> makeKnnEstimator();

} // namespace sosrep
