// SPDX-License-Identifier: MIT
// Axis ticks in the data's own units for plots drawn in scaled units.
#include "ui/plots/raw_units_ticker.h"

#include <cmath>

namespace sosrep::ui {

QCPRange RawUnitsTicker::rawRange(const QCPRange& scaled) const
{
    return QCPRange(toRaw(scaled.lower), toRaw(scaled.upper)); // normalized (scale > 0)
}

double RawUnitsTicker::getTickStep(const QCPRange& range)
{
    if (!m_scaler.isAffine()) {
        return QCPAxisTicker::getTickStep(range);
    }
    // A round step in raw units (the base class's 1, 2, 2.5, 5 x 10^k choice).
    return QCPAxisTicker::getTickStep(rawRange(range));
}

QVector<double> RawUnitsTicker::createTickVector(double tickStep, const QCPRange& range)
{
    // Round raw values, placed where they fall on the scaled axis.
    if (!m_scaler.isAffine()) {
        m_step = 0.0;
        return QCPAxisTicker::createTickVector(tickStep, range);
    }
    QVector<double> ticks;
    const QCPRange raw = rawRange(range);
    if (!(tickStep > 0) || !std::isfinite(raw.lower) || !std::isfinite(raw.upper)) {
        return ticks;
    }
    m_step = tickStep;
    const double first = std::floor(raw.lower / tickStep);
    const double last = std::ceil(raw.upper / tickStep);
    for (double k = first; k <= last && ticks.size() < 1000; k += 1.0) {
        ticks << toScaled(k * tickStep);
    }
    return ticks;
}

QString RawUnitsTicker::getTickLabel(double tick, const QLocale& locale, QChar formatChar,
                                     int precision)
{
    // Back to the round value it came from (the round trip leaves residue such as 1e-17).
    double raw = toRaw(tick);
    if (!m_scaler.isAffine()) {
        return locale.toString(raw, 'g', 3); // a quantile's value: not a round number
    }
    if (m_step > 0) {
        raw = std::round(raw / m_step) * m_step;
    }
    return QCPAxisTicker::getTickLabel(raw, locale, formatChar, precision);
}

} // namespace sosrep::ui
