// SPDX-License-Identifier: MIT
// The table model of the Scores view.
#pragma once

#include "core/estimators/estimator.h"
#include "core/types.h"

#include <QAbstractTableModel>

#include <optional>
#include <vector>

namespace sosrep::ui {

/// Per-row log density and anomaly score (= -log p), with the row's name (the file's id
/// column), its label when known, whether it was fitted, its outlier flag, and its feature
/// values in the data's own units. Sortable views sit on top through QSortFilterProxyModel.
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
    /// The rows' names and the id column's name (empty: no name column); and the feature
    /// values shown after the scores (raw units, one row per scored row; empty: none).
    void setRowNames(std::vector<std::string> names, const QString& header);
    void setFeatures(Matrix values);
    /// The outlier threshold (a log value: rows below it are flagged, as `sosrep fit
    /// --contamination` writes them), or none (no "outlier" column).
    void setThreshold(std::optional<double> offset);
    /// The anomaly score's column (its place moves with the name column).
    int scoreColumn() const;

private:
    enum class Column
    {
        Row,
        Name,
        LogValue,
        Score,
        Label,
        Fitted,
        Outlier,
        Feature
    };
    Vector m_logDensity;
    std::optional<Eigen::VectorXi> m_labels;
    DensityKind m_kind = DensityKind::Normalized;
    std::vector<Eigen::Index> m_fitRows;
    QStringList m_columns;
    std::optional<double> m_threshold;
    std::vector<std::string> m_rowNames;
    QString m_rowNameHeader;
    Matrix m_features;
    /// The columns in order, rebuilt when what they show changes (feature j at
    /// m_firstFeature + j).
    std::vector<Column> m_layout;
    int m_firstFeature = 0;
    void relayout();
    Column columnAt(int section) const;
};

} // namespace sosrep::ui
