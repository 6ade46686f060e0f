// SPDX-License-Identifier: MIT
#pragma once

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

} // namespace sosrep::ui
