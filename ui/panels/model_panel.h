// SPDX-License-Identifier: MIT
#pragma once

#include <QWidget>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QPushButton;
class QSlider;
class QSpinBox;

namespace sosrep::ui {

class EstimationController;

/// Estimator, kernel, length scale (log slider + exact number + auto), solver and its settings,
/// with Fit (F5) and Cancel (Esc). Editing never refits by itself.
class ModelPanel : public QWidget
{
    Q_OBJECT

public:
    explicit ModelPanel(EstimationController* controller, QWidget* parent = nullptr);

    /// The Fit / Cancel bar; it sits at the end of the panel until a container moves it.
    QWidget* actionBar() const { return m_actions; }

private:
    void refresh();
    void push();
    void updateRules();

    EstimationController* m_controller;
    QComboBox* m_estimator;
    QComboBox* m_kernel;
    QComboBox* m_sdoMethod;
    QWidget* m_actions;
    QSpinBox* m_order;
    QSpinBox* m_features;
    QSlider* m_lengthSlider;
    QDoubleSpinBox* m_length;
    QCheckBox* m_auto;
    QPushButton* m_scott;
    QPushButton* m_silverman;
    double m_scottValue = 0.0;
    double m_silvermanValue = 0.0;
    QComboBox* m_selection;
    QComboBox* m_solver;
    QDoubleSpinBox* m_lr;
    QSpinBox* m_iterations;
    QSpinBox* m_seed;
    QPushButton* m_fit;
    QPushButton* m_cancel;
    bool m_refreshing = false;
};

} // namespace sosrep::ui
