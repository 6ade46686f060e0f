// SPDX-License-Identifier: MIT
// Exporting and copying the current tab's plot and the rows' scores.
#pragma once

#include "ui/main_window.h"
#include "ui/plots/plot_export.h"
#include "ui/reproduce.h"

#include <QObject>
#include <QString>

namespace sosrep::ui {

/// File > Export and Edit > Copy: the current tab's plot (PNG, PDF, SVG at a chosen size) and
/// the scores table as `sosrep fit --scores-out` writes it. A stale result is not exported.
class Exporter : public QObject
{
    Q_OBJECT

public:
    Exporter(QWidget* window, const WindowViews& views, const WindowControllers& controllers);

    /// What the current tab exports: its plot, the score plots on the Scores tab, the whole
    /// view (maps, read-outs, bottom row) on the Compare tab.
    QWidget* currentPlot() const;
    /// Writes the current tab's plot; returns "" or the error (also shown to the user).
    QString exportCurrentPlot(const QString& path, const ExportOptions& options);
    /// Writes row,log_density,anomaly_score[,label] of the last fit; returns "" or the error.
    QString exportScores(const QString& path);
    void exportPlotInteractively();
    void exportScoresInteractively();
    /// The current plot, or the Scores table's selected rows as tab-separated text.
    void copyCurrent();
    /// What reproduces the current tab's numbers: the Scores view's model on the Scores tab,
    /// the ratio fit on the Ratio tab, the density fit on the others. Throws std::runtime_error
    /// without data.
    Reproduction reproduction() const;
    /// Copies the `sosrep` command (or the Python) of reproduction() to the clipboard.
    void copyReproduction(bool python);

signals:
    void error(const QString& message);
    void message(const QString& text, int milliseconds);

private:
    /// "" or why the current tab's results cannot be exported (stale, or none yet).
    QString exportRefusal(const QString& path) const;
    /// Says the error and returns it.
    QString refuse(const QString& why);

    QWidget* m_window;
    WindowViews m_v;
    WindowControllers m_c;
};

} // namespace sosrep::ui
