// SPDX-License-Identifier: MIT
// The table model of the Scores view.
#include "ui/scores_model.h"

#include "ui/controller/density_units.h"

#include <algorithm>

namespace sosrep::ui {

void ScoresModel::setScores(const Vector& logDensity, const std::optional<Eigen::VectorXi>& labels,
                            DensityKind kind, std::vector<Eigen::Index> fitRows)
{
    beginResetModel();
    m_fitRows = std::move(fitRows);
    m_logDensity = logDensity;
    m_labels = labels;
    m_kind = kind;
    relayout();
    endResetModel();
}

void ScoresModel::setRowNames(std::vector<std::string> names, const QString& header)
{
    beginResetModel();
    m_rowNames = std::move(names);
    m_rowNameHeader = header;
    relayout();
    endResetModel();
}

void ScoresModel::setFeatures(Matrix values)
{
    beginResetModel();
    m_features = std::move(values);
    relayout();
    endResetModel();
}

void ScoresModel::setThreshold(std::optional<double> offset)
{
    if (offset == m_threshold) {
        return;
    }
    beginResetModel();
    m_threshold = offset;
    relayout();
    endResetModel();
}

void ScoresModel::relayout()
{
    const Eigen::Index rows = m_logDensity.size();
    m_layout = {Column::Row};
    if (!m_rowNames.empty() && Eigen::Index(m_rowNames.size()) == rows) {
        m_layout.push_back(Column::Name);
    }
    m_layout.insert(m_layout.end(), {Column::LogValue, Column::Score});
    if (m_labels) {
        m_layout.push_back(Column::Label);
    }
    if (!m_fitRows.empty()) {
        m_layout.push_back(Column::Fitted);
    }
    if (m_threshold) {
        m_layout.push_back(Column::Outlier);
    }
    m_firstFeature = int(m_layout.size());
    if (m_features.rows() == rows && rows > 0) {
        m_layout.insert(m_layout.end(), size_t(m_features.cols()), Column::Feature);
    }
}

int ScoresModel::scoreColumn() const
{
    const auto it = std::find(m_layout.begin(), m_layout.end(), Column::Score);
    return it == m_layout.end() ? -1 : int(it - m_layout.begin());
}

ScoresModel::Column ScoresModel::columnAt(int section) const
{
    return m_layout[size_t(section)];
}

int ScoresModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_logDensity.size());
}

int ScoresModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_layout.size());
}

QVariant ScoresModel::data(const QModelIndex& index, int role) const
{
    const int r = index.row();
    const Column column = columnAt(index.column());
    if (column == Column::Fitted) {
        const bool fitted = std::binary_search(m_fitRows.begin(), m_fitRows.end(), r);
        if (role == Qt::ToolTipRole) {
            return fitted ? tr("in the seeded subsample the model was fitted on")
                          : tr("not fitted on: scored by the model of the subsample");
        }
        if (role == Qt::DisplayRole || role == Qt::EditRole) {
            return fitted ? tr("yes") : tr("no");
        }
        return {};
    }
    if (column == Column::Outlier) {
        const bool outlier = m_logDensity(r) < *m_threshold;
        if (role == Qt::ToolTipRole) {
            return outlier
                       ? tr("below the outlier threshold %1").arg(*m_threshold, 0, 'g', 5)
                       : tr("at or above the outlier threshold %1").arg(*m_threshold, 0, 'g', 5);
        }
        if (role == Qt::DisplayRole || role == Qt::EditRole) {
            return outlier ? 1 : 0; // as the exported table's outlier column
        }
        return {};
    }
    if (role != Qt::DisplayRole && role != Qt::EditRole) {
        return {};
    }
    switch (column) {
    case Column::Row:
        return r;
    case Column::Name:
        return QString::fromStdString(m_rowNames[size_t(r)]);
    case Column::LogValue:
        return m_logDensity(r);
    case Column::Score:
        return -m_logDensity(r);
    case Column::Label:
        return (*m_labels)(r);
    case Column::Feature:
        return m_features(r, index.column() - m_firstFeature);
    default:
        return {};
    }
}

QVariant ScoresModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 ||
        section >= int(m_layout.size())) {
        return QAbstractTableModel::headerData(section, orientation, role);
    }
    switch (columnAt(section)) {
    case Column::Row:
        return tr("row");
    case Column::Name:
        return m_rowNameHeader;
    case Column::LogValue:
        return logValueLabel(m_columns, m_kind);
    case Column::Score:
        return m_kind == DensityKind::Score ? tr("anomaly score (−normality)")
                                            : tr("anomaly score (−log p)");
    case Column::Label:
        return tr("label");
    case Column::Fitted:
        return tr("fitted");
    case Column::Outlier:
        return tr("outlier");
    case Column::Feature: {
        const int j = section - m_firstFeature;
        return j < m_columns.size() ? m_columns[j] : QVariant();
    }
    }
    return {};
}

} // namespace sosrep::ui
