// SPDX-License-Identifier: MIT
// Opening and saving project files from the app.
#pragma once

#include <QString>

namespace sosrep::ui {

class Session;
class HueController;
class ThresholdController;
class RatioController;
class DensityTab;
class OtherRocController;

/// What a project holds: the session (data, roles, plotted columns, settings) and the state of
/// the views' controllers that projects keep.
struct ProjectParts
{
    Session& session;
    HueController& hue;
    ThresholdController& thresholds;
    RatioController& ratio;
    DensityTab& density;           // the map's colours, the joint plot
    OtherRocController& otherRocs; // the ROC of other estimators
};

/// The file a project typed as `typed` is saved to: a name ending in .json as it is, "p1.sosrep"
/// as p1.sosrep.json (not p1.sosrep.sosrep.json), anything else with .sosrep.json added.
QString projectPathFor(const QString& typed);

/// Saves the session as JSON ("format": "sosrep-studio-project", version 2): the data file's path
/// and SHA-256 (or the toy generator's kind, n and seed), column roles, plotted columns, scaling
/// and every model parameter with its seed. Atomic (QSaveFile). Returns "" or a one-line error.
QString saveProject(const QString& path, const ProjectParts& parts);

struct ProjectOpenResult
{
    QString error;   // non-empty: nothing was changed
    QString warning; // e.g. the data file changed since the project was saved
};

/// Reopens a saved session into `parts` (data, roles, plot columns, settings, hue). Does not fit.
ProjectOpenResult openProject(const QString& path, const ProjectParts& parts);

} // namespace sosrep::ui
