// SPDX-License-Identifier: MIT
#pragma once

#include <QStringList>
#include <QTextStream>

namespace sosrep::cli {

/// `sosrep adbench --data-dir DIR [fit options] [--seeds 42,43] [--hindsight]`: the ADBench
/// protocol on every .npz of a folder (subsample to 10000, stratified 70/30 split, min-max fitted
/// on train, labels only for the AUC), one table row per dataset and seed, then the means.
/// --hindsight also reports the best AUC over the FD grid (labels used: for reference only).
int commandAdbench(const QStringList& args, QTextStream& out);

} // namespace sosrep::cli
