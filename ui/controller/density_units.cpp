// SPDX-License-Identifier: MIT
// Units of densities and length scales as the app shows them.
#include "ui/controller/density_units.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>

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

QString bwAdjustText(double bwAdjust, double chosen)
{
    if (bwAdjust == 1.0) {
        return {};
    }
    return QCoreApplication::translate("densityUnit", " (bw_adjust %1 × the chosen %2)")
        .arg(bwAdjust, 0, 'g', 4)
        .arg(chosen, 0, 'g', 4);
}

QString lengthScaleText(double l, const Scaler& scaler, const QStringList& columns)
{
    const QString plain = QStringLiteral("ℓ = %1").arg(l, 0, 'g', 4);
    const Eigen::Index d = scaler.scale.size();
    if (scaler.isIdentity() || d == 0 || d != columns.size()) {
        return plain;
    }
    if (!scaler.isAffine()) {
        // A rank scaling stretches each column differently from place to place: no one
        // length in the data's units.
        return QCoreApplication::translate("densityUnit", "%1 in rank units (quantile levels)")
            .arg(plain);
    }
    const Vector inData = l * scaler.scale.cwiseAbs();
    const double lo = inData.minCoeff();
    const double hi = inData.maxCoeff();
    QString per;
    if (d == 1) {
        // One column: its name, not "in every column" (issue 50).
        per = QStringLiteral("%1: %2").arg(columns.value(0)).arg(lo, 0, 'g', 4);
    } else if (hi - lo <= 1e-9 * hi) {
        per = QCoreApplication::translate("densityUnit", "%1 in every column").arg(lo, 0, 'g', 4);
    } else if (d > 3) {
        per = QCoreApplication::translate("densityUnit", "%1 to %2 in the columns' units")
                  .arg(lo, 0, 'g', 3)
                  .arg(hi, 0, 'g', 3);
    } else {
        QStringList parts;
        for (Eigen::Index j = 0; j < d; ++j) {
            parts << QStringLiteral("%1: %2").arg(columns.value(int(j))).arg(inData(j), 0, 'g', 3);
        }
        per = parts.join(QStringLiteral(", "));
    }
    return QCoreApplication::translate("densityUnit", "%1 in scaled units (%2)").arg(plain, per);
}

} // namespace sosrep::ui
