// SPDX-License-Identifier: MIT
#pragma once

#include "app/cli/command_context.h"

namespace sosrep::cli {

/// The commands of `sosrep`; each returns an exit code or throws (cli_runner.cpp maps
/// exceptions to exit codes and one-line messages).
int commandGenerate(const QStringList& args, CommandContext& ctx);
int commandFit(const QStringList& args, CommandContext& ctx);
int commandScore(const QStringList& args, CommandContext& ctx);
int commandSplit(const QStringList& args, CommandContext& ctx);
/// `sosrep adbench --data-dir DIR [fit options] [--seeds 42,43] [--hindsight]`: the ADBench
/// protocol on every .npz of a folder (subsample to 10000, stratified 70/30 split, min-max fitted
/// on train, labels only for the AUC), one table row per dataset and seed, then the means.
/// --hindsight also reports the best AUC over the FD grid (labels used: for reference only).
int commandAdbench(const QStringList& args, CommandContext& ctx);

} // namespace sosrep::cli
