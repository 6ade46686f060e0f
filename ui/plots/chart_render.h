// SPDX-License-Identifier: MIT
// Drawing a core chart into PNG, PDF or SVG bytes.
#pragma once

#include "core/report/chart.h"

#include <QByteArray>
#include <QString>

namespace sosrep::ui {

/// Draws a chart described in core (core/report/chart.h) with QCustomPlot and returns the file's
/// bytes in `format` ("png", "pdf" or "svg"). Needs a QApplication (the offscreen platform will
/// do). Throws std::runtime_error with a one-line message on an unknown format or a write
/// failure.
QByteArray renderChart(const Chart& chart, const QString& format);

/// Box statistics as the box plots draw them: quartiles by linear interpolation (type 7, NumPy's
/// default), whiskers at the most extreme values within 1.5 IQR of the box (Tukey), the rest
/// outliers.
struct BoxStats
{
    double lowerWhisker = 0.0;
    double q1 = 0.0;
    double median = 0.0;
    double q3 = 0.0;
    double upperWhisker = 0.0;
    double mean = 0.0;
    std::vector<double> outliers;
};
BoxStats boxStats(std::vector<double> values); // values must not be empty

} // namespace sosrep::ui
