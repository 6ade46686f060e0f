// SPDX-License-Identifier: MIT
// sosrep-studio's own command-line options, checked before any window or fit exists.
#pragma once

#include "ui/plots/density_heatmap.h"

#include <QCommandLineParser>
#include <QSize>
#include <QString>

#include <optional>

namespace sosrep::app {

/// The options of sosrep-studio (and its positional data file), with their help.
void addStudioOptions(QCommandLineParser& parser);

/// Every option value of sosrep-studio, checked at once: a bad one is refused with a message
/// naming it before any work starts (the fit of a batch run could take minutes). Returns the
/// message ("" when all are good). Checked: the estimators' names and families (--estimator and
/// --compare estimate densities, --ratio-estimator ratios), --tab in 0-5, --size within
/// kMaxShotSide per side, --ratio-split COLUMN=NUMBER, the output formats of --screenshot and
/// --export-plot, --purpose (a purpose, for an estimator that tunes a length scale),
/// --contamination as `sosrep fit` reads it, and --marginal only where its view is shown.
QString checkStudioOptions(const QCommandLineParser& parser);

/// The window size of --size (invalid when not given).
QSize askedSize(const QCommandLineParser& parser);

/// --color-scale's value as the map's colouring (log, linear, proportion), or nullopt.
std::optional<sosrep::ui::MapScale> mapScaleFromText(const QString& text);

/// A larger screenshot is refused: 32767 x 32767 took 69 s and 16 GB, 100000 x 100000 crashed.
constexpr int kMaxShotSide = 8192;

} // namespace sosrep::app
