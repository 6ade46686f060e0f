// SPDX-License-Identifier: MIT
#include "ui/density_units.h"

#include <QCoreApplication>

namespace sosrep::ui {

QString densityUnit(const QStringList& columns, DensityKind kind)
{
    if (kind != DensityKind::Normalized && kind != DensityKind::PreDensity) {
        return {};
    }
    if (columns.size() > 3) {
        return QCoreApplication::translate("densityUnit", "per unit of the %1 columns' product")
            .arg(columns.size());
    }
    return QCoreApplication::translate("densityUnit", "per %1")
        .arg(columns.join(QStringLiteral(" × ")));
}

QString logValueLabel(const QStringList& columns, DensityKind kind)
{
    switch (kind) {
    case DensityKind::Score:
        return QCoreApplication::translate("densityUnit", "normality score");
    case DensityKind::Ratio:
        return QCoreApplication::translate("densityUnit", "log ratio");
    case DensityKind::PreDensity:
        return QCoreApplication::translate("densityUnit", "log pre-density %1")
            .arg(densityUnit(columns, kind));
    case DensityKind::Normalized:
        break;
    }
    return QCoreApplication::translate("densityUnit", "log density %1")
        .arg(densityUnit(columns, kind));
}

} // namespace sosrep::ui
