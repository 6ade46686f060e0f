// SPDX-License-Identifier: MIT
// The option tables of ratio estimators: t and lambda grids and their tuning.
#pragma once

#include "core/estimators/estimator.h"
#include "core/estimators/option.h"
#include "core/ratio/ratio_tuning.h"

#include <string>
#include <vector>

namespace sosrep {

/// Options the ratio estimators share (FIRE and TIKDE tune by the same J criterion).
OptionSpec ratioTOption();        // t: auto or a variance > 0
OptionSpec ratioLambdaOption();   // lambda: auto or > 0
OptionTable ratioTuningOptions(); // folds, test_functions, half_spaces

RatioTuningConfig ratioTuningFrom(const OptionValues& v);

/// Throws ParameterError("t") when sqrt(t), the kernel's width, is below 1e-8 x the diameter of
/// the p rows `xp` (the floor fit puts on a length scale): kernel values would underflow.
void checkRatioT(double t, const MatrixRef& xp);

/// The grid to tune on: the default grid's t values unless t is given (then that one), and
/// `lambdas` unless the option `lambdaName` is given.
RatioGrid ratioGridFrom(const OptionValues& v, const MatrixRef& xp,
                        const std::vector<double>& lambdas, const std::string& lambdaName,
                        bool typeTwo = false);

/// Adds the tuning's fields (criterion, grid, choice) to a fit's summary.
void addTuningFields(const JSurface& s, SummaryFields* fields);

} // namespace sosrep
