// SPDX-License-Identifier: MIT
#pragma once

#include "core/tuning/length_scale_search.h"

#include <qcustomplot.h>

namespace sosrep::ui {

/// What the rule chose on a finished sweep, for the FD view: the selected grid point, the
/// Fisher divergence's own choice it started from (the ranking and ensemble rules), the ensemble's
/// members and their agreement, and the rule in words.
struct FdChoice
{
    int selected = -1; // < 0 while the sweep is still running
    int fdIndex = -1;
    std::vector<int> members;
    QString words;     // describeSelection()
    QString agreement; // ensemble: the Spearman correlations of its members' rankings
};

/// Fisher divergence against the length scale (log axis), the selected point and the rule that
/// picked it, in words. Clicking a point asks for a refit at that length scale.
class FdPlot : public QCustomPlot
{
    Q_OBJECT

public:
    explicit FdPlot(QWidget* parent = nullptr);
    void setCurve(const std::vector<FdPoint>& curve, const FdChoice& choice = {});
    QString title() const { return m_title->text(); }

signals:
    void lengthScaleClicked(double lengthScale);

private:
    void onClick(QMouseEvent* event);

    QCPGraph* m_curve = nullptr;
    QCPGraph* m_selected = nullptr;
    QCPGraph* m_fdChoice = nullptr; // the FD minimum the ranking/ensemble rules start from
    QCPGraph* m_members = nullptr;  // the ensemble's length scales
    QCPTextElement* m_title = nullptr;
    std::vector<FdPoint> m_points;
};

} // namespace sosrep::ui
