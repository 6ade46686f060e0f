// SPDX-License-Identifier: MIT
#pragma once

#include "core/estimators/estimator.h"
#include "core/types.h"

#include <QAbstractTableModel>

#include <optional>

namespace sosrep::ui {

/// Per-row log density and anomaly score (= -log p), with the label when known. Sortable views
/// sit on top through QSortFilterProxyModel.
class ScoresModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    using QAbstractTableModel::QAbstractTableModel;
    void setScores(const Vector& logDensity, const std::optional<Eigen::VectorXi>& labels,
                   DensityKind kind);
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    Vector m_logDensity;
    std::optional<Eigen::VectorXi> m_labels;
    DensityKind m_kind = DensityKind::Normalized;
};

} // namespace sosrep::ui
