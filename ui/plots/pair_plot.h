// SPDX-License-Identifier: MIT
// The pair plot: every pair of columns' map below the diagonal, each column's marginal on it.
#pragma once

#include "core/data/scaler.h"
#include "ui/controller/pair_plot_job.h"

#include <qcustomplot.h>

#include <map>
#include <utility>

namespace sosrep::ui {

class FittedTitle;

/// seaborn's pairplot(kind="kde", corner=True) for a fitted model: a k x k grid of panels, the
/// 2-D slice map of each pair below the diagonal (log density, a common colour band per
/// panel), each column's 1-D marginal on it; outer axes carry the column names. Panels arrive
/// one at a time (setPanel) and are drawn as they come.
class PairPlot : public QCustomPlot
{
    Q_OBJECT

public:
    explicit PairPlot(QWidget* parent = nullptr);
    /// A new, empty grid for these columns (at most kMaxColumns are drawn).
    void start(const QStringList& names, const QString& title, const Scaler& scaler);
    void setPanel(const PairPanel& panel);
    void setTitle(const QString& title);
    QString title() const;
    /// Panels drawn so far, and how many the grid has.
    int panelsDrawn() const { return m_drawn; }
    int panelCount() const { return m_k * (m_k + 1) / 2; }

    /// The colour bar of every map: log density below each panel's own peak.
    QCPColorScale* colourScale() const { return m_colourScale; }

    static constexpr int kMaxColumns = kPairPlotMaxColumns;
    /// Each map's colours span [peak - kBandNats, peak] of its own log density.
    static constexpr double kBandNats = 12.0;

protected:
    /// Lays the grid out twice: the second time with stretch factors that give every panel
    /// the same inner width and height, whatever its outer labels take.
    void updateLayout() override;

private:
    QCPAxisRect* rectAt(int row, int column) const;

    FittedTitle* m_title = nullptr;
    QCPLayoutGrid* m_grid = nullptr;
    QCPColorScale* m_colourScale = nullptr;
    int m_k = 0;
    Scaler m_scaler; // the panels' axes tick at round values of the data's own units
    int m_drawn = 0;
    std::map<std::pair<int, int>, QCPAxisRect*> m_rects;
};

} // namespace sosrep::ui
