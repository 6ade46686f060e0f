// SPDX-License-Identifier: MIT
// The commands of `sosrep`, one function each.
#pragma once

#include "app/cli/command_context.h"

namespace sosrep::cli {

/// The commands of `sosrep`; each returns an exit code or throws (cli_runner.cpp maps
/// exceptions to exit codes and one-line messages).
int commandGenerate(const QStringList& args, CommandContext& ctx);
int commandFit(const QStringList& args, CommandContext& ctx);
int commandScore(const QStringList& args, CommandContext& ctx);
int commandSplit(const QStringList& args, CommandContext& ctx);
/// `sosrep mmd --data FILE --model FILE [--model FILE]` or `--data FILE --data2 FILE`: MMD^2
/// with a Gaussian kernel between the data and each model, between the two models, or between
/// two samples (V- and U-statistics); closed form, grid quadrature or Monte Carlo, labelled.
int commandMmd(const QStringList& args, CommandContext& ctx);
/// `sosrep ratio --p FILE (--q FILE | --q-function EXPR | --q-model FILE | --inverse)
/// [--estimator fire|ulsif|tikde|sosrep-ratio] [options]`: the density ratio q/p (issue 10),
/// importance weights and their summaries; one-line JSON summary last.
int commandRatio(const QStringList& args, CommandContext& ctx);
/// `sosrep adbench --data-dir DIR [fit options] [--seeds 42,43] [--hindsight]`: the ADBench
/// protocol on every .npz of a folder (subsample to 10000, stratified 70/30 split, min-max fitted
/// on train, labels only for the AUC), one table row per dataset and seed, then the means.
/// --hindsight also reports the best AUC over the FD grid (labels used: for reference only).
int commandAdbench(const QStringList& args, CommandContext& ctx);
/// `sosrep experiment negativity --data FILE | --data-dir DIR [options]`: the paper's Fig. 3,
/// natural vs standard gradient from many initialisations, table, CSV and figure.
int commandExperiment(const QStringList& args, CommandContext& ctx);

} // namespace sosrep::cli
