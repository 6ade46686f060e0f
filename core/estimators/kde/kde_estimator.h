// SPDX-License-Identifier: MIT
// Kernel density estimation with the product's kernels, as a plug-in.
#pragma once

#include "core/estimators/estimator.h"
#include "core/types.h"

#include <memory>

namespace sosrep {

/// Kernel density estimation with the same kernels (design.md section 3):
/// p = (1/N) sum_i k(x_i, .) / Z with the kernel's normalizer Z, or with row weights
/// p = sum_i w_i k(x_i, .) / (Z sum_i w_i) (scikit-learn's KernelDensity(sample_weight)).
/// No options of its own.
std::unique_ptr<Estimator> makeKdeEstimator();

class KernelFieldModel;
class KernelOperator;
/// The KDE model on a kernel built on the training rows: weights 1/N, or the given row weights
/// divided by their sum (ParameterError "sample_weight" when they are not one finite,
/// non-negative weight per row, not all zero). normalize = false: weights read from a model
/// file, used as stored (they must sum to 1).
std::unique_ptr<KernelFieldModel> makeKdeModel(std::shared_ptr<const KernelOperator> kernel,
                                               const Vector& rowWeights = Vector(),
                                               bool normalize = true);

} // namespace sosrep
