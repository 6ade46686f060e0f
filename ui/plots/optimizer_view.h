// SPDX-License-Identifier: MIT
// The Optimizer view: natural against standard gradient, live.
#pragma once

#include <QWidget>

class QCheckBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QSpinBox;

namespace sosrep::ui {

class FitController;
class Session;
class TracePlot;

/// The optimizer view: the live traces, and above them the settings of the paper's
/// natural-vs-standard comparison (step λ, iterations) with a button that runs it again on the
/// fitted kernel (no refit), a one-click preset for the paper's Fig. 3 setting, the Newton
/// path on or off, and the many-start negativity experiment. A large fit leaves the comparison
/// for later (see SolverComparisonSettings::eagerMaxCentres): it starts when the view is shown.
class OptimizerView : public QWidget
{
    Q_OBJECT

public:
    OptimizerView(FitController* fits, QWidget* parent = nullptr);
    TracePlot* plot() const { return m_plot; }
    /// Sets the paper's Fig. 3 step and iterations and runs the comparison.
    void runPaperSetting();

signals:
    void negativityRequested();

protected:
    void showEvent(QShowEvent* event) override;

private:
    void refresh();
    /// Starts a comparison the fit left for later, if this view is on screen.
    void startDeferredIfShown();
    void apply();

    FitController* m_fits;
    Session* m_controller;
    TracePlot* m_plot;
    QDoubleSpinBox* m_rate;
    QSpinBox* m_iterations;
    QPushButton* m_run;
    QPushButton* m_paper;
    QCheckBox* m_newton;
    QPushButton* m_many;
    QLabel* m_deferredNote;
    QLabel* m_kindNote;
};

} // namespace sosrep::ui
