// SPDX-License-Identifier: MIT
// The outlier share bar of the Scores view.
#pragma once

#include "core/pipeline/outlier_threshold.h"
#include "core/types.h"

#include <QWidget>

#include <optional>

class QCheckBox;
class QDoubleSpinBox;
class QLabel;

namespace sosrep::ui {

/// The Scores view's outlier flags: "Flag [10] % of rows as outliers", and what the threshold
/// is and where it came from once computed (rows the model did not fit, as `sosrep fit
/// --contamination` and Python's `offset_`).
class OutlierBar : public QWidget
{
    Q_OBJECT

public:
    explicit OutlierBar(QWidget* parent = nullptr);
    /// The share asked for: 0 when the box is off, else the spin box's share in (0, 0.5].
    double contamination() const;
    /// Sets the controls without emitting (a project read, a reset).
    void setContamination(double contamination);
    /// What the bar says: computing, the threshold and how many of `logValues` fall below it,
    /// or nothing when off.
    void showState(double contamination, bool pending,
                   const std::optional<OutlierThreshold>& threshold, const Vector& logValues,
                   const QString& unit);
    QString text() const;

signals:
    void contaminationChanged(double contamination);

private:
    QCheckBox* m_on;
    QDoubleSpinBox* m_percent;
    QLabel* m_state;
};

} // namespace sosrep::ui
