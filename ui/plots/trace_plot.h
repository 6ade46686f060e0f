// SPDX-License-Identifier: MIT
#pragma once

#include "core/estimators/sosrep.h"

#include <qcustomplot.h>

namespace sosrep::ui {

/// The paper's natural-vs-standard comparison, live: loss, share of negative f(x_i) and the
/// stationarity residual (log scale) against iteration, one panel each, sharing the x axis.
class TracePlot : public QCustomPlot
{
    Q_OBJECT

public:
    explicit TracePlot(QWidget* parent = nullptr);
    void setTraces(const std::vector<TraceRow>& natural, const std::vector<TraceRow>& standard);

private:
    QCPAxisRect* addPanel(const QString& yLabel, bool logScale);

    QVector<QCPAxisRect*> m_panels;
    QVector<QCPGraph*> m_natural; // per panel
    QVector<QCPGraph*> m_standard;
};

} // namespace sosrep::ui
