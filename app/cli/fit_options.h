// SPDX-License-Identifier: MIT
// The estimators' option tables as command-line flags, and FitSettings from a command line.
#pragma once

#include "app/cli/cli_options.h"
#include "core/estimators/fit_settings.h"

#include <string>
#include <vector>

namespace sosrep::cli {

/// Adds --estimator and one flag per option of the registered estimators' option tables (the
/// common data, kernel and tuning options, then each estimator's own), with their help, value
/// name and default. Generated: an estimator registered at run time shows up here.
void addEstimatorOptions(QCommandLineParser& p, bool ratios = false);

/// The settings the command line asks for: the estimator's defaults, then every flag given,
/// purpose=auto resolved to the command's task (`taskPurpose`, e.g. "density" for fit; empty:
/// left as it is). Bad values throw ParameterError naming the option. Flags the settings do not
/// use (another estimator's option, or one that does not apply here) each give a warning in
/// *warnings.
FitSettings settingsFromOptions(const Options& o, long long trainRows,
                                std::vector<std::string>* warnings, bool ratios = false,
                                const std::string& taskPurpose = {});

/// Sets in `s` every estimator option the command line gives that `s` has, and returns their
/// names; the names of given options `s` does not have go to *notHeld. Bad values throw
/// ParameterError naming the option.
std::vector<std::string> applyGivenOptions(const Options& o, FitSettings& s,
                                           std::vector<std::string>* notHeld, bool ratios = false);

/// The command-line spelling of a parameter named in a ParameterError ("learning_rate" is
/// "--lr"); names that are already flags stay.
std::string cliSpelling(const std::string& parameter);

} // namespace sosrep::cli
