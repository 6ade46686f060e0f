// SPDX-License-Identifier: MIT
// Axis ticks in the data's own units for plots drawn in scaled units.
#pragma once

#include "core/data/scaler.h"

#include <qcustomplot.h>

namespace sosrep::ui {

/// Ticks in the data's own units on an axis that plots scaled features: raw = shift + scale *
/// scaled (the fit's Scaler). The ticks sit at round raw values (height 150, 160, 170 cm, not
/// 0.25, 0.5 of a min-max range); the plot itself stays in the fitted, scaled units.
class RawUnitsTicker : public QCPAxisTicker
{
public:
    /// Column `column` of `scaler`: round data values placed where they fall when the scaling
    /// is affine; for rank (nonlinear, where round data values would bunch up) the base
    /// class's round scaled positions (quantile levels) labelled with their data values.
    RawUnitsTicker(const Scaler& scaler, Eigen::Index column) : m_scaler(scaler), m_column(column)
    {
    }
    double toRaw(double scaled) const { return m_scaler.toData(m_column, scaled); }
    /// With `atMost`, the step is the smallest round one that puts at most tickCount() ticks
    /// on the axis (the base class only comes near the count: five labels ran together in a
    /// pair plot's panel asked for three).
    void setAtMost(bool atMost) { m_atMost = atMost; }
    double toScaled(double raw) const { return m_scaler.toScaled(m_column, raw); }

protected:
    double getTickStep(const QCPRange& range) override;
    QVector<double> createTickVector(double tickStep, const QCPRange& range) override;
    QString getTickLabel(double tick, const QLocale& locale, QChar formatChar,
                         int precision) override;

private:
    QCPRange rawRange(const QCPRange& scaled) const;

    Scaler m_scaler;
    Eigen::Index m_column;
    double m_step = 0.0; // the raw tick step last used
    bool m_atMost = false;
};

/// The smallest step of 1, 2, 2.5 or 5 times a power of ten that puts at most `count` ticks
/// on `range`, or, where that step puts none on it, the largest that puts one or more.
double roundStepForAtMost(const QCPRange& range, int count);

} // namespace sosrep::ui
