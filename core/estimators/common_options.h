// SPDX-License-Identifier: MIT
// The option tables every kernel estimator shares: data, kernel and length-scale tuning.
#pragma once

#include "core/data/scaler.h"
#include "core/estimators/option.h"
#include "core/kernels/kernel.h"
#include "core/tuning/length_scale_search.h"

namespace sosrep {

class Estimator;

/// Options every estimator has: scaling of the data, the seed and the rows fitted at most.
const OptionTable& dataOptions();

/// max_fit_rows' default. Why 100 000 (docs/python.md, "Fit time against N"; 2-core EPYC): a
/// default SOSREP fit takes ~90 s there and ~210 s at 200 000 rows; at 10^6 rows its Nystroem
/// block alone (N x 800 doubles) is 6.4 GB, past limits::kMaxMatrixBytes, and a KDE's every
/// value is a sum over its N rows, so scoring its own 10^6 rows costs 10^12 kernel values.
constexpr int kDefaultMaxFitRows = 100000;
/// The kernel and its length scale, for estimators that use a kernel (Capabilities::usesKernel):
/// kernel, length_scale (a number, auto, scott or silverman), sdo_order, sdo_method, features,
/// backend, rank. Defaults come from KernelSpec.
const OptionTable& kernelOptions();
/// Fisher-divergence tuning of the length scale (Capabilities::fisherTuning): purpose, grid,
/// selection, reach_neighbours, fd_factor, fd_estimator, fd_duplicates, validation.
const OptionTable& tuningOptions();

/// Every option of `estimator`, in the order front ends show them: data, kernel, tuning, then
/// the estimator's own.
OptionTable optionTableFor(const Estimator& estimator);

/// The kernel the values describe; the length scale is the number given, or 1 when it is tuned
/// or a rule of thumb (the caller sets it). `dim` checks the SDO order.
KernelSpec kernelSpecFrom(const OptionValues& values);
/// The tuning configuration the values describe: selection=auto becomes the purpose's rule.
SearchConfig searchConfigFrom(const OptionValues& values);
/// The same, with wide_scale=auto resolved on the (scaled) training rows: the wide member
/// joins when the columns are heavy-tailed (heavyTailed).
SearchConfig searchConfigFrom(const OptionValues& values, const MatrixRef& train);

/// True when the median column's sample skewness is at least kWideScaleSkewness in absolute
/// value: anomalies far from the bulk in a few columns, which the wide scale sees.
bool heavyTailed(const MatrixRef& x);
constexpr double kWideScaleSkewness = 2.0;
/// The scaling the values ask for. scale=auto is the purpose's: ScalingKind::Auto (rank for
/// spike-and-tail columns, else min-max, resolved from the training rows by Scaler::fit) when
/// the values state purpose=anomaly, min-max for the density purpose and for estimators that
/// have no purpose (detectors, ratios). Front ends resolve purpose=auto to their task first.
ScalingKind scalingOf(const OptionValues& values);
/// The purpose the values state; auto (a front end that has not said) counts as density, the
/// library's default. Front ends resolve auto to their task first (FitSettings::setPurpose).
Purpose purposeOf(const OptionValues& values);
/// The rule the values select (selection=auto: the purpose's rule).
SelectionRule resolvedRule(const OptionValues& values);

} // namespace sosrep
