// SPDX-License-Identifier: MIT
#pragma once

#include "app/cli/cli_options.h"
#include "app/cli/fit_pipeline.h"

namespace sosrep::cli {

/// The model options shared by `fit` and `adbench` (estimator, kernel, l, solver, seeds, outputs).
void addFitOptions(QCommandLineParser& p);

/// Typed request from those options, validated for data of dimension `dim`.
FitRequest fitRequestFromOptions(const Options& o, int dim);

} // namespace sosrep::cli
