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
    /// `normality`: the scores are minus a normality score (IForest, kNN, rank ensemble), not
    /// -log p.
    void setScores(const Vector& anomalyScores, const std::optional<Eigen::VectorXi>& labels,
                   bool normality = false);

private:
    QCPAxisRect* m_histRect;
    QCPAxisRect* m_rocRect;
    QCPGraph* m_histAll;
    QCPGraph* m_histAnomalies;
    QCPGraph* m_roc;
    QCPGraph* m_chance;
    QCPTextElement* m_histTitle = nullptr;
    QCPTextElement* m_rocTitle;
};

} // namespace sosrep::ui
