// SPDX-License-Identifier: MIT
#pragma once

#include "core/types.h"

#include <qcustomplot.h>

#include <optional>

namespace sosrep::ui {

/// Anomaly-score histogram (split by label when known) and, with labels, the ROC curve with
/// AUC-ROC and AUC-PR, side by side.
class ScorePlots : public QCustomPlot
{
    Q_OBJECT

public:
    explicit ScorePlots(QWidget* parent = nullptr);
    void setScores(const Vector& anomalyScores, const std::optional<Eigen::VectorXi>& labels);

private:
    QCPAxisRect* m_histRect;
    QCPAxisRect* m_rocRect;
    QCPGraph* m_histAll;
    QCPGraph* m_histAnomalies;
    QCPGraph* m_roc;
    QCPGraph* m_chance;
    QCPTextElement* m_rocTitle;
};

} // namespace sosrep::ui
