// SPDX-License-Identifier: MIT
// Axis ticks in the data's own units for plots drawn in scaled units.
#include "ui/plots/raw_units_ticker.h"

#include <algorithm>
#include <cmath>

namespace sosrep::ui {

QCPRange RawUnitsTicker::rawRange(const QCPRange& scaled) const
{
    return QCPRange(toRaw(scaled.lower), toRaw(scaled.upper)); // normalized (scale > 0)
}

double roundStepForAtMost(const QCPRange& range, int count)
{
    const double span = range.size();
    if (!(span > 0.0) || !std::isfinite(span)) {
        return 1.0;
    }
    const auto ticksOn = [&range](double step) {
        return std::floor(range.upper / step) - std::ceil(range.lower / step) + 1.0;
    };
    // From a tenth of the span up: the first round step with few enough ticks.
    double previous = 0.0;
    double decade = std::pow(10.0, std::floor(std::log10(span / 10.0)));
    for (int k = 0; k < 40; ++k, decade *= 10.0) {
        for (double mantissa : {1.0, 2.0, 2.5, 5.0}) {
            const double step = mantissa * decade;
            if (ticksOn(step) <= double(std::max(1, count))) {
                return ticksOn(step) >= 1.0 || previous == 0.0 ? step : previous;
            }
            previous = step;
        }
    }
    return span;
}

double RawUnitsTicker::getTickStep(const QCPRange& range)
{
    if (!m_scaler.isAffine()) {
        return m_atMost ? roundStepForAtMost(range, tickCount())
                        : QCPAxisTicker::getTickStep(range);
    }
    // A round step in raw units (the base class's 1, 2, 2.5, 5 x 10^k choice).
    const QCPRange raw = rawRange(range);
    return m_atMost ? roundStepForAtMost(raw, tickCount()) : QCPAxisTicker::getTickStep(raw);
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
