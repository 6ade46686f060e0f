// SPDX-License-Identifier: MIT
// Kernel density estimation with the product's kernels, as a plug-in.
#pragma once

#include "core/estimators/estimator.h"

#include <memory>

namespace sosrep {

/// Kernel density estimation with the same kernels (design.md section 3):
/// p = (1/N) sum_i k(x_i, .) / Z with the kernel's normalizer Z. No options of its own.
std::unique_ptr<Estimator> makeKdeEstimator();

class KernelFieldModel;
class KernelOperator;
/// The KDE model on a kernel built on the training rows (weights 1/N).
std::unique_ptr<KernelFieldModel> makeKdeModel(std::shared_ptr<const KernelOperator> kernel);

} // namespace sosrep
