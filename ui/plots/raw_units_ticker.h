// SPDX-License-Identifier: MIT
// Axis ticks in the data's own units for plots drawn in scaled units.
#pragma once

#include <qcustomplot.h>

namespace sosrep::ui {

/// Ticks in the data's own units on an axis that plots scaled features: raw = shift + scale *
/// scaled (the fit's Scaler). The ticks sit at round raw values (height 150, 160, 170 cm, not
/// 0.25, 0.5 of a min-max range); the plot itself stays in the fitted, scaled units.
class RawUnitsTicker : public QCPAxisTicker
{
public:
    RawUnitsTicker(double shift, double scale) : m_shift(shift), m_scale(scale) {}
    double toRaw(double scaled) const { return m_shift + m_scale * scaled; }
    double toScaled(double raw) const { return (raw - m_shift) / m_scale; }

protected:
    double getTickStep(const QCPRange& range) override;
    QVector<double> createTickVector(double tickStep, const QCPRange& range) override;
    QString getTickLabel(double tick, const QLocale& locale, QChar formatChar,
                         int precision) override;

private:
    QCPRange rawRange(const QCPRange& scaled) const;

    double m_shift;
    double m_scale;
    double m_step = 0.0; // the raw tick step last used
};

} // namespace sosrep::ui
