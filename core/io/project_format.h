// SPDX-License-Identifier: MIT
// The project file of the app: data, settings and view state.
#pragma once

#include "core/data/toy_data.h"
#include "core/estimators/fit_settings.h"
#include "core/io/json.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sosrep::io {

/// A saved session ("format": "sosrep-studio-project", version 2), independent of the app's
/// objects: where the data come from (a file with its SHA-256, or the toy generator's
/// settings), the column roles, the plotted columns, the fit settings (the same JSON as model
/// files) and the app's own settings.
struct ProjectData
{
    std::optional<ToyConfig> toy;
    std::string dataPath; // absolute (a relative path in the file is relative to the project)
    std::string sha256;
    std::vector<std::string> roles; // "feature", "label" or "ignore", one per column
    int plotX = 0;
    int plotY = 1;
    FitSettings settings;
    int maxFitRows = 10000;
    std::string compareWith; // "" = automatic
    /// The Scores view's outlier share (0 = no flags; Session::setContamination).
    double contamination = 0.0;
    /// The Density tab's hue column ("" = none): a raw column of 2-12 values, checked when the
    /// data are there.
    std::string hue;
    /// The hue's options: each class at its own ℓ, and seaborn's common_norm.
    bool huePerClassLengthScale = false;
    bool hueCommonNorm = true;
    /// The Density tab's map colouring ("log", "linear" or "proportion") and whether it is a
    /// joint plot; the other estimators on the Scores view's ROC panel (issue 50).
    std::string mapColours = "log";
    bool joint = false;
    std::vector<std::string> rocWith;
    /// The Optimizer view's natural-vs-standard runs: step λ and iterations (the view's range).
    double optimizerStep = 0.1;
    int optimizerIterations = 500;
    Json ratio = Json::object(); // the Ratio view's state (RatioController::toJson), may be empty
    /// What the last fit's length-scale tuning did for each view: the purpose, the rule and
    /// the length scales (a record for readers; the settings alone decide a refit). May be
    /// empty.
    Json tuning = Json::object();
};

std::string projectJson(const ProjectData& project);

/// Parses and checks a project file's bytes; throws DataError naming `path` (with line and
/// column for malformed JSON) on anything malformed: another format or version, settings that
/// are not the estimator's options, roles that are not feature/label/ignore, bad toy settings,
/// negative sizes.
ProjectData parseProject(std::string_view bytes, const std::string& path);

} // namespace sosrep::io
