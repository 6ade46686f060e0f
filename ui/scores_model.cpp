// SPDX-License-Identifier: MIT
// The table model of the Scores view.
#include "ui/scores_model.h"

#include "ui/density_units.h"

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
    endResetModel();
}

void ScoresModel::setThreshold(std::optional<double> offset)
{
    if (offset == m_threshold) {
        return;
    }
    beginResetModel();
    m_threshold = offset;
    endResetModel();
}

int ScoresModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_logDensity.size());
}

int ScoresModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid()
               ? 0
               : 3 + (m_labels ? 1 : 0) + (m_fitRows.empty() ? 0 : 1) + (m_threshold ? 1 : 0);
}

QVariant ScoresModel::data(const QModelIndex& index, int role) const
{
    const int r = index.row();
    if (index.column() == fittedColumn()) {
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
    if (index.column() == outlierColumn()) {
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
    switch (index.column()) {
    case 0:
        return r;
    case 1:
        return m_logDensity(r);
    case 2:
        return -m_logDensity(r);
    case 3:
        return m_labels ? QVariant((*m_labels)(r)) : QVariant();
    default:
        return {};
    }
    return {};
}

QVariant ScoresModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return QAbstractTableModel::headerData(section, orientation, role);
    }
    if (section == outlierColumn()) {
        return tr("outlier");
    }
    switch (section) {
    case 0:
        return tr("row");
    case 1:
        return logValueLabel(m_columns, m_kind);
    case 2:
        return m_kind == DensityKind::Score ? tr("anomaly score (−normality)")
                                            : tr("anomaly score (−log p)");
    case 3:
    case 4:
        return section == fittedColumn() ? tr("fitted") : tr("label");
    default:
        return {};
    }
    return {};
}

} // namespace sosrep::ui
