// SPDX-License-Identifier: MIT
// The pair plot: every pair of columns' map below the diagonal, each column's marginal on it.
#include "ui/plots/pair_plot.h"

#include "ui/plots/fitted_title.h"
#include "ui/plots/plot_style.h"
#include "ui/plots/raw_units_ticker.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace sosrep::ui {
namespace {

constexpr double kBandNats = 12.0; // each map's colours span [max - 12, max] in log density

} // namespace

PairPlot::PairPlot(QWidget* parent) : QCustomPlot(parent)
{
    plotLayout()->clear();
    m_title = new FittedTitle(this, QFont(font().family(), 10, QFont::Bold));
    plotLayout()->addElement(0, 0, m_title);
    m_grid = new QCPLayoutGrid;
    plotLayout()->addElement(1, 0, m_grid);
    m_grid->setRowSpacing(2);
    m_grid->setColumnSpacing(2);
    setNoAntialiasingOnDrag(true);
}

void PairPlot::start(const QStringList& names, const QString& title, const Scaler& scaler)
{
    m_scaler = scaler;
    clearPlottables();
    m_grid->clear();
    m_rects.clear();
    m_drawn = 0;
    m_k = std::min<int>(int(names.size()), kMaxColumns);
    m_title->setFullText(title);
    // One margin group per column (left and right edges line up down it) and per row (top
    // and bottom across it): one group for all gave every panel the outer panels' label room.
    std::vector<QCPMarginGroup*> columns, rows;
    for (int k = 0; k < m_k; ++k) {
        columns.push_back(new QCPMarginGroup(this));
        rows.push_back(new QCPMarginGroup(this));
    }
    for (int r = 0; r < m_k; ++r) {
        for (int c = 0; c <= r; ++c) {
            auto* rect = new QCPAxisRect(this);
            rect->setupFullAxesBox(false);
            const bool raw = !scaler.isIdentity() && scaler.scale.size() > r;
            for (QCPAxis* a : rect->axes()) {
                a->setTickLabels(false);
                a->grid()->setVisible(false);
                const bool horizontal = a->orientation() == Qt::Horizontal;
                const int column = horizontal ? c : r;
                if (raw && !(r == c && !horizontal)) {
                    a->setTicker(QSharedPointer<QCPAxisTicker>(new RawUnitsTicker(scaler, column)));
                }
                a->ticker()->setTickCount(3);
            }
            // The outer panels name their columns: the bottom row its x, the first column y.
            if (r == m_k - 1) {
                rect->axis(QCPAxis::atBottom)->setTickLabels(true);
                rect->axis(QCPAxis::atBottom)->setLabel(names.value(c));
            }
            if (c == 0) {
                rect->axis(QCPAxis::atLeft)->setTickLabels(r != 0);
                rect->axis(QCPAxis::atLeft)->setLabel(r == 0 ? QString() : names.value(r));
            }
            rect->setMarginGroup(QCP::msLeft | QCP::msRight, columns[size_t(c)]);
            rect->setMarginGroup(QCP::msTop | QCP::msBottom, rows[size_t(r)]);
            m_grid->addElement(r, c, rect);
            m_rects[{r, c}] = rect;
        }
    }
    replot();
}

QCPAxisRect* PairPlot::rectAt(int row, int column) const
{
    const auto it = m_rects.find({row, column});
    return it == m_rects.end() ? nullptr : it->second;
}

void PairPlot::setPanel(const PairPanel& p)
{
    QCPAxisRect* rect = rectAt(p.row, p.column);
    if (!rect) {
        return;
    }
    QCPAxis* x = rect->axis(QCPAxis::atBottom);
    QCPAxis* y = rect->axis(QCPAxis::atLeft);
    if (p.row == p.column) {
        const CurveSpec& s = p.curve.spec;
        QVector<double> t(s.n), v(s.n);
        double top = 0.0;
        for (int i = 0; i < s.n; ++i) {
            t[i] = s.t(i);
            v[i] = std::exp(p.curve.logValues(i));
            top = std::isfinite(v[i]) ? std::max(top, v[i]) : top;
        }
        QCPGraph* g = addGraph(x, y);
        g->setData(t, v, true);
        g->setPen(QPen(QColor(20, 20, 20), 1.4));
        g->setBrush(QColor(0, 114, 178, 60));
        g->removeFromLegend();
        x->setRange(s.min, s.max);
        y->setRange(0.0, top > 0.0 ? top * 1.1 : 1.0);
    } else {
        const DensityGrid& g = p.grid;
        const GridSpec& s = g.spec;
        auto* map = new QCPColorMap(x, y);
        map->data()->setSize(s.nx, s.ny);
        map->data()->setRange(QCPRange(s.x(0), s.x(s.nx - 1)), QCPRange(s.y(0), s.y(s.ny - 1)));
        for (int j = 0; j < s.ny; ++j) {
            for (int i = 0; i < s.nx; ++i) {
                map->data()->setCell(i, j, g.logDensity(j, i));
            }
        }
        map->setGradient(colormap(QStringLiteral("viridis")));
        map->setInterpolate(true);
        const double hi = g.logDensity.maxCoeff();
        map->setDataRange(QCPRange(std::max(g.logDensity.minCoeff(), hi - kBandNats), hi));
        map->removeFromLegend();
        x->setRange(s.xMin, s.xMax);
        y->setRange(s.yMin, s.yMax);
        // The column's range matches the diagonal's above it.
    }
    ++m_drawn;
    replot(rpQueuedReplot);
}

void PairPlot::setTitle(const QString& title)
{
    m_title->setFullText(title);
    replot(rpQueuedReplot);
}

QString PairPlot::title() const
{
    return m_title->fullText();
}

} // namespace sosrep::ui
