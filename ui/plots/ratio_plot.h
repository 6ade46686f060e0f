// SPDX-License-Identifier: MIT
// The ratio view's plots: map, curve, histogram and J surface.
#pragma once

#include "core/types.h"

#include <QStringList>
#include <qcustomplot.h>

#include <optional>

namespace sosrep::ui {

struct RatioResult;

/// The Ratio view's plot: three panels in one QCustomPlot, so an export holds them all. The
/// log-ratio map (diverging, white at q = p, the line log ratio = 0, both samples on it), the
/// tuning criterion over (t, lambda) with the choice and the slider's lambda marked, and the
/// histogram of the weights with the effective sample size. Side by side from 820 px wide,
/// stacked (map on top) below. Drawing only: it reads a RatioResult and the samples (raw units).
class RatioPlot : public QCustomPlot
{
    Q_OBJECT

public:
    explicit RatioPlot(QWidget* parent = nullptr);

    /// Before a fit: the samples alone (so a rectangle can be dragged), with a title.
    void showSamples(const Matrix& p, const Matrix& q, int xColumn, int yColumn,
                     const QStringList& names, const QString& title);
    void showResult(const RatioResult& r, const Matrix& p, const Matrix& q,
                    const QStringList& names);
    /// The next rectangle dragged on the map is reported by rectanglePicked (raw units).
    void setPickMode(bool on);
    /// Outlines the rectangle q's rows were picked in (raw units of the columns it was drawn
    /// on); drawn only while the map shows those columns. A null rect removes it.
    void setQRectangle(const QRectF& rect, int xColumn, int yColumn);
    /// The outline's corners as drawn (empty when none is shown).
    QRectF shownQRectangle() const;
    /// The map's colour-bar caption ("" without a result).
    QString mapScaleLabel() const;
    /// Whether any panel shows something of a result: a colour bar, the J surface's axes, the
    /// weights' axes or their line at 1 (for tests: none without a result).
    bool showsResultPanels() const;
    /// Where the slider's lambda is marked on the J grid (cell coordinates), or nullopt.
    std::optional<QPointF> shownLambdaMark() const;

signals:
    void rectanglePicked(double x0, double x1, double y0, double y1);

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    /// The pieces of the constructor: the title and the three blocks (arrange() places them),
    /// the map of log r with the samples and q's rectangle, the tuning surface with its choice,
    /// the histogram of the weights.
    void buildBlocks();
    void buildMapPanel();
    void buildSurfacePanel();
    void buildHistogramPanel();
    /// drawMap for one column: the ratio as a curve, the samples as rugs at 0.
    void drawCurve(const RatioResult& r, QCPAxis* x, QCPAxis* y);
    static QString nameOf(const QStringList& names, int column);
    void arrange(bool wide);
    void drawMap(const RatioResult& r, const Matrix& p, const Matrix& q, const QStringList& names);
    void drawSurface(const RatioResult& r);
    /// The map's colour scale, the J surface and the weights' histogram emptied (no result).
    void clearResultPanels();
    void drawHistogram(const RatioResult& r);

    QCPTextElement* m_title;
    QCPLayoutGrid* m_body;
    QCPLayoutGrid* m_mapBlock;
    QCPLayoutGrid* m_surfaceBlock;
    bool m_wide = true;
    bool m_arranged = false;
    QCPAxisRect* m_mapRect;
    QCPColorMap* m_map;
    QCPColorScale* m_mapScale;
    QCPCurve* m_zero;
    QCPGraph* m_pPoints;
    QCPGraph* m_qPoints;
    QCPAxisRect* m_surfaceRect;
    QCPColorMap* m_surface;
    QCPColorScale* m_surfaceScale;
    QCPGraph* m_choice;
    QCPGraph* m_shownLambda;
    QCPAxisRect* m_histRect;
    QCPBars* m_bars;
    QCPItemStraightLine* m_one;
    QCPItemRect* m_qRect = nullptr;
    int m_mapX = 0, m_mapY = 1; // the columns the map shows
};

} // namespace sosrep::ui
