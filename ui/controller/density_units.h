// SPDX-License-Identifier: MIT
// Units of densities and length scales as the app shows them.
#pragma once

#include "core/data/scaler.h"
#include "core/estimators/estimator.h"

#include <QString>
#include <QStringList>

namespace sosrep::ui {

/// The unit of a log density over these columns, as a reader sees it next to the number:
/// "per minute × hour" (every column's own unit: the models give log values per unit of the
/// data's columns, FittedModel::setDataUnits), or for many columns "per unit of the 9 columns'
/// product". Empty for a ratio or a normality score, which have no unit.
QString densityUnit(const QStringList& columns, DensityKind kind);

/// "log density per minute × hour", "log pre-density per …", "normality score", "log ratio".
QString logValueLabel(const QStringList& columns, DensityKind kind);

/// "ℓ = 0.05" said in the data's units too, since ℓ acts on the scaled coordinates: "ℓ = 0.05
/// in scaled units (minutes: 1.2, hours: 0.3)" per column (anisotropic in the data when the
/// columns' scales differ), "(3.1 in every column)" when they agree, the range over the
/// columns for more than three, and plain "ℓ = 0.05" without scaling.
QString lengthScaleText(double lengthScale, const Scaler& scaler, const QStringList& columns);

/// What seaborn's bw_adjust did to the fitted ℓ, for titles: " (bw_adjust 0.5 × the chosen
/// 0.1042)", or "" when it is 1 (the fitted ℓ is the chosen one).
QString bwAdjustText(double bwAdjust, double chosen);

} // namespace sosrep::ui
