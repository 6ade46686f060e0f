// SPDX-License-Identifier: MIT
// Per-class densities (seaborn's hue=): one model per value of a column, on its own rows.
#pragma once

#include "core/data/scaler.h"
#include "core/estimators/fit_settings.h"
#include "core/grid/density_curve.h"
#include "core/grid/density_grid.h"
#include "core/types.h"

#include <atomic>
#include <string>
#include <vector>

namespace sosrep::ui {

/// One class: the rows whose hue column holds `value`, fitted alone.
struct ClassDensity
{
    double value = 0.0;
    std::string name; // the value as shown: its category's text, or the number
    Eigen::Index rows = 0;
    double share = 0.0; // its rows' share of all rows (seaborn's common_norm weight)
    DensityGrid grid;   // on the map's grid (2-D data), per unit of the data's columns
    DensityCurve curve; // along the one column (1-D data), as evaluateCurve gives it
    DensityKind kind = DensityKind::Normalized;
};

struct ClassDensities
{
    std::string column; // the hue column's name
    std::vector<ClassDensity> classes;
    std::vector<std::string> skipped; // classes with too few rows to fit, said so
    std::string error;                // why there are none (too many values...)
    bool cancelled = false;
};

/// At most this many classes: a hue column is a label or a group, not a measurement.
constexpr int kMaxHueClasses = 12;

/// One model per distinct value of `hue` (one value per row of x), each fitted through the fit
/// route with `settings` at the whole data's length scale `lengthScale` (the same kernel for
/// every class: the curves differ by their rows only; seaborn's per-group bandwidth would
/// also change with the group's size), then evaluated on `grid` (2-D) or along `curve` (1-D).
/// Polls `cancel` between classes and grid chunks; errors (too many classes, a class the
/// estimator refuses) are returned in `error`. `levels`: the texts of a category column's
/// codes (Dataset::categories), which name the classes; empty for a numeric column.
ClassDensities fitClassDensities(const Matrix& x, const Vector& hue, const std::string& column,
                                 const FitSettings& settings, double lengthScale,
                                 const Scaler& scaler, const GridSpec* grid, const CurveSpec* curve,
                                 const std::atomic<bool>& cancel,
                                 const std::vector<std::string>& levels = {});

} // namespace sosrep::ui
