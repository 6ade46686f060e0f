// SPDX-License-Identifier: MIT
#pragma once

#include <QMainWindow>

class QLabel;
class QProgressBar;
class QTabWidget;
class QTableView;

namespace sosrep::ui {

class DensityHeatmap;
class EstimationController;
class FdPlot;
class ScoresModel;
class TracePlot;

/// Wiring only: panels on the left, views in tabs, progress in the status bar. All state lives
/// in the EstimationController.
class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    explicit MainWindow(QWidget* parent = nullptr);

    EstimationController* controller() const { return m_controller; }
    DensityHeatmap* densityView() const { return m_density; }
    TracePlot* tracePlot() const { return m_trace; }
    FdPlot* fdPlot() const { return m_fd; }
    QTabWidget* tabs() const { return m_tabs; }
    /// Last error shown to the user (for tests and the status bar).
    QString lastError() const { return m_lastError; }

    void openFile(const QString& path);

private:
    void createActions();
    void showResult();
    void showError(const QString& message);
    QString densityTitle() const;

    EstimationController* m_controller;
    QTabWidget* m_tabs;
    DensityHeatmap* m_density;
    TracePlot* m_trace;
    FdPlot* m_fd;
    QTableView* m_scoresView;
    ScoresModel* m_scores;
    QLabel* m_aucLabel;
    QProgressBar* m_progress;
    QLabel* m_stage;
    QString m_lastError;
};

} // namespace sosrep::ui
