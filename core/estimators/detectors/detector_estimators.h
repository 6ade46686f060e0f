// SPDX-License-Identifier: MIT
// The comparison detectors (IsolationForest, kNN, LOF, ECOD) behind the estimator interface.
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

/// Local Outlier Factor (Breunig et al. 2000; scikit-learn's LocalOutlierFactor with
/// novelty=True): value = minus the mean local reachability density of x's k nearest training
/// rows over x's own (k = 20, at most the training rows less one), exact neighbours.
std::unique_ptr<Estimator> makeLofEstimator();

/// ECOD (Li, Zhao, Hu, Botta, Ionescu & Chen 2022): value = minus the largest of the summed
/// left-tail, right-tail and skewness-chosen tail surprisals -log F of each column's empirical
/// distribution (the training rows and x itself). Parameter free.
std::unique_ptr<Estimator> makeEcodEstimator();

} // namespace sosrep
