// SPDX-License-Identifier: MIT
// SOSREP (p = f^2, f in a Sobolev-type RKHS) as a plug-in.
#pragma once

#include "core/estimators/estimator.h"

#include <memory>

namespace sosrep {

/// SOSREP (arXiv eq. 3/5): p = f^2, f = sum_i alpha_i k(x_i, .), fitted by the safeguarded
/// Newton solver (default), natural gradient (eq. 8) or standard gradient (eq. 7); "both" runs
/// natural and standard gradient from the same initialisation (the paper's Fig. 3 comparison)
/// and keeps the natural one. Options: solver, learning_rate, iterations, tolerance.
std::unique_ptr<Estimator> makeSosrepEstimator();

class KernelFieldModel;
class KernelOperator;
/// Whether SOSREP with this kernel is normalized exactly (the Gaussian kernel: the integral of
/// f^2 has a closed form, see KernelOperator::logSquaredFieldIntegral).
bool sosrepIsNormalized(const KernelSpec& kernel);

/// The SOSREP model of coefficients `alpha` on a kernel built on the training rows: p = f^2 / Z,
/// a true density, for the Gaussian kernel; the pre-density f^2 otherwise.
std::unique_ptr<KernelFieldModel> makeSosrepModel(std::shared_ptr<const KernelOperator> kernel,
                                                  Vector alpha);

} // namespace sosrep
