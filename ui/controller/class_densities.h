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
    std::string name;         // the value as shown: its category's text, or the number
    double lengthScale = 0.0; // in scaled units: the pooled one, or the class's own
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

/// How the classes are fitted and drawn (seaborn's kdeplot with hue=).
struct HueOptions
{
    /// Each class's ℓ tuned on its own rows by the model's rule (seaborn's default: every
    /// group its own bandwidth), instead of the whole data's ℓ for every class.
    bool perClassLengthScale = false;
    /// seaborn's common_norm: each class's curve times its share of the rows (they add up to
    /// a density of all rows); off, each class's curve has area 1.
    bool commonNorm = true;
    bool operator==(const HueOptions& o) const
    {
        return perClassLengthScale == o.perClassLengthScale && commonNorm == o.commonNorm;
    }
    bool operator!=(const HueOptions& o) const { return !(*this == o); }
};

/// At most this many classes: a hue column is a label or a group, not a measurement.
constexpr int kMaxHueClasses = 12;

/// One model per distinct value of `hue` (one value per row of x), each fitted through the fit
/// route with `settings` at the whole data's length scale `lengthScale` (the same kernel for
/// every class: the curves differ by their rows only) or, with `perClassLengthScale`, at the
/// ℓ its own rows give by the settings' rule (seaborn's per-group bandwidth, which also
/// changes with the group's size), then evaluated on `grid` (2-D) or along `curve` (1-D).
/// Polls `cancel` between classes and grid chunks; errors (too many classes, a class the
/// estimator refuses) are returned in `error`. `levels`: the texts of a category column's
/// codes (Dataset::categories), which name the classes; empty for a numeric column.
ClassDensities fitClassDensities(const Matrix& x, const Vector& hue, const std::string& column,
                                 const FitSettings& settings, double lengthScale,
                                 const Scaler& scaler, const GridSpec* grid, const CurveSpec* curve,
                                 const std::atomic<bool>& cancel,
                                 const std::vector<std::string>& levels = {},
                                 bool perClassLengthScale = false);

} // namespace sosrep::ui
