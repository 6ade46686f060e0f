// SPDX-License-Identifier: MIT
#pragma once

#include "app/cli/cli_options.h"
#include "app/cli/fit_pipeline.h"

namespace sosrep::cli {

/// The model options shared by `fit` and `adbench` (estimator, kernel, l, solver, seeds, outputs).
void addFitOptions(QCommandLineParser& p);

/// Limits of the fit options (refused above, with the reason).
constexpr int kMaxIterations = 1000000;
constexpr int kMaxGrid = 200;

/// Typed request from those options, validated for data of dimension `dim`.
FitRequest fitRequestFromOptions(const Options& o, int dim);

/// Options given on the command line that the request does not use, one warning each (e.g.
/// --features with the gaussian kernel, --lr with the newton solver).
std::vector<std::string> ignoredOptionWarnings(const Options& o, const FitRequest& request,
                                               Eigen::Index trainRows);

} // namespace sosrep::cli
