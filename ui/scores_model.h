// SPDX-License-Identifier: MIT
// The table model of the Scores view.
#pragma once

#include "core/estimators/estimator.h"
#include "core/types.h"

#include <QAbstractTableModel>

#include <optional>
#include <vector>

namespace sosrep::ui {

/// Per-row log density and anomaly score (= -log p), with the label when known. Sortable views
/// sit on top through QSortFilterProxyModel.
class ScoresModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    using QAbstractTableModel::QAbstractTableModel;
    /// `fitRows`: the rows the model was fitted on, ascending; empty = every row (no column).
    void setScores(const Vector& logDensity, const std::optional<Eigen::VectorXi>& labels,
                   DensityKind kind, std::vector<Eigen::Index> fitRows = {});
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
    /// The data's column names: the log-value column says its unit ("per minute × hour").
    void setColumns(const QStringList& columns) { m_columns = columns; }
    /// The outlier threshold (a log value: rows below it are flagged, as `sosrep fit
    /// --contamination` writes them), or none (no "outlier" column).
    void setThreshold(std::optional<double> offset);

private:
    Vector m_logDensity;
    std::optional<Eigen::VectorXi> m_labels;
    DensityKind m_kind = DensityKind::Normalized;
    std::vector<Eigen::Index> m_fitRows;
    QStringList m_columns;
    std::optional<double> m_threshold;
    int labelColumn() const { return m_labels ? 3 : -1; }
    int fittedColumn() const { return m_fitRows.empty() ? -1 : (m_labels ? 4 : 3); }
    int outlierColumn() const
    {
        return m_threshold ? 3 + (m_labels ? 1 : 0) + (m_fitRows.empty() ? 0 : 1) : -1;
    }
};

} // namespace sosrep::ui
