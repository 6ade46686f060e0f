// SPDX-License-Identifier: MIT
// The dialog of the negativity experiment's settings.
#pragma once

#include "core/experiments/negativity.h"

#include <QDialog>

class QComboBox;
class QDoubleSpinBox;
class QSpinBox;

namespace sosrep::ui {

/// The settings of the negativity experiment (paper Fig. 3) on the loaded data, with the
/// paper's protocol as defaults (50 starts, 1000 iterations, worst 5) and ours where the paper
/// is silent (design.md section 1).
class NegativityDialog : public QDialog
{
    Q_OBJECT

public:
    explicit NegativityDialog(const NegativitySettings& initial, Eigen::Index rows,
                              QWidget* parent = nullptr);
    NegativitySettings settings() const;

private:
    QComboBox* m_kernel;
    QDoubleSpinBox* m_factor;
    QDoubleSpinBox* m_rate;
    QSpinBox* m_iterations;
    QSpinBox* m_starts;
    QSpinBox* m_worst;
    QSpinBox* m_rows;
    QSpinBox* m_seed;
};

} // namespace sosrep::ui
