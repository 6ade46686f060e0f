// SPDX-License-Identifier: MIT
#pragma once

#include "core/tuning/length_scale_search.h"

#include <qcustomplot.h>

namespace sosrep::ui {

/// Fisher divergence against the length scale (log axis), the selected point and the rule that
/// picked it. Clicking a point asks for a refit at that length scale.
class FdPlot : public QCustomPlot
{
    Q_OBJECT

public:
    explicit FdPlot(QWidget* parent = nullptr);
    /// `selected` < 0 while the sweep is still running.
    void setCurve(const std::vector<FdPoint>& curve, int selected, const QString& rule);

signals:
    void lengthScaleClicked(double lengthScale);

private:
    void onClick(QMouseEvent* event);

    QCPGraph* m_curve = nullptr;
    QCPGraph* m_selected = nullptr;
    QCPTextElement* m_title = nullptr;
    std::vector<FdPoint> m_points;
};

} // namespace sosrep::ui
