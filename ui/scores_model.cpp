// SPDX-License-Identifier: MIT
#include "ui/scores_model.h"

namespace sosrep::ui {

void ScoresModel::setScores(const Vector& logDensity, const std::optional<Eigen::VectorXi>& labels,
                            DensityKind kind)
{
    beginResetModel();
    m_logDensity = logDensity;
    m_labels = labels;
    m_kind = kind;
    endResetModel();
}

int ScoresModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_logDensity.size());
}

int ScoresModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : (m_labels ? 4 : 3);
}

QVariant ScoresModel::data(const QModelIndex& index, int role) const
{
    if (role != Qt::DisplayRole && role != Qt::EditRole) {
        return {};
    }
    const int r = index.row();
    switch (index.column()) {
    case 0:
        return r;
    case 1:
        return m_logDensity(r);
    case 2:
        return -m_logDensity(r);
    case 3:
        return m_labels ? QVariant((*m_labels)(r)) : QVariant();
    }
    return {};
}

QVariant ScoresModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return QAbstractTableModel::headerData(section, orientation, role);
    }
    switch (section) {
    case 0:
        return tr("row");
    case 1:
        return m_kind == DensityKind::Score        ? tr("normality score")
               : m_kind == DensityKind::PreDensity ? tr("log pre-density")
                                                   : tr("log density");
    case 2:
        return m_kind == DensityKind::Score ? tr("anomaly score (−normality)")
                                            : tr("anomaly score (−log p)");
    case 3:
        return tr("label");
    }
    return {};
}

} // namespace sosrep::ui
