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

/// Room per tick across a panel: three labels of shuttle's x1 ("50", "75", "100") ran into
/// each other in 45 px.
constexpr int kTickPixels = 30;

/// Stretch factors that give each of the sizes' elements the same inner extent: each outer
/// size is the inner share plus its own margins.
QList<double> equalInnerStretch(const std::vector<int>& margins, int available)
{
    int total = 0;
    for (int m : margins) {
        total += m;
    }
    const double inner = std::max(1.0, double(available - total) / double(margins.size()));
    QList<double> factors;
    for (int m : margins) {
        factors.append(inner + double(m));
    }
    return factors;
}

} // namespace

PairPlot::PairPlot(QWidget* parent) : QCustomPlot(parent)
{
    plotLayout()->clear();
    m_title = new FittedTitle(this, QFont(font().family(), 10, QFont::Bold));
    plotLayout()->addElement(0, 0, m_title);
    auto* body = new QCPLayoutGrid;
    plotLayout()->addElement(1, 0, body);
    m_grid = new QCPLayoutGrid;
    body->addElement(0, 0, m_grid);
    m_grid->setRowSpacing(2);
    m_grid->setColumnSpacing(2);
    // One colour bar for every map: each map's colours span the kBandNats below its own peak
    // (a common scale would leave the flat pairs one colour), so the bar reads in nats below
    // the panel's peak, not in absolute log density.
    m_colourScale = new QCPColorScale(this);
    body->addElement(0, 1, m_colourScale);
    body->setColumnStretchFactor(1, 0.01);
    m_colourScale->setType(QCPAxis::atRight);
    m_colourScale->setGradient(colormap(QStringLiteral("viridis")));
    m_colourScale->setDataRange(QCPRange(-kBandNats, 0.0));
    m_colourScale->setLabel(QStringLiteral("log density minus the panel's peak (nats)"));
    m_colourScale->setBarWidth(10);
    setNoAntialiasingOnDrag(true);
}

void PairPlot::updateLayout()
{
    QCustomPlot::updateLayout();
    if (m_k < 2) {
        return;
    }
    // The first column carries the y labels and the bottom row the x labels: with equal
    // outer sizes their panels were half as wide (shuttle, 1600 px) as the rest.
    std::vector<int> widths, heights;
    for (int c = 0; c < m_k; ++c) {
        const QMargins m = rectAt(m_k - 1, c)->margins();
        widths.push_back(m.left() + m.right());
    }
    for (int r = 0; r < m_k; ++r) {
        const QMargins m = rectAt(r, 0)->margins();
        heights.push_back(m.top() + m.bottom());
    }
    const QRect area = m_grid->rect();
    const int spacing = m_grid->columnSpacing() * (m_k - 1);
    m_grid->setColumnStretchFactors(equalInnerStretch(widths, area.width() - spacing));
    m_grid->setRowStretchFactors(
        equalInnerStretch(heights, area.height() - m_grid->rowSpacing() * (m_k - 1)));
    const QRect inner = rectAt(m_k - 1, m_k - 1)->rect();
    const int lineHeight =
        QFontMetrics(rectAt(m_k - 1, 0)->axis(QCPAxis::atLeft)->tickLabelFont()).height();
    // About one tick per kTickPixels across and per three label heights down, at least one.
    const int across = std::clamp(inner.width() / kTickPixels, 1, 3);
    const int down = std::clamp(inner.height() / (3 * lineHeight), 1, 3);
    for (const auto& [at, rect] : m_rects) {
        for (QCPAxis* a : rect->axes()) {
            a->ticker()->setTickCount(a->orientation() == Qt::Horizontal ? across : down);
        }
    }
    QCustomPlot::updateLayout();
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
            // QCustomPlot's least inner size, 50 x 50, squeezed 9 rows into shares of their
            // least sizes, labels included, whatever the stretch factors said.
            rect->setMinimumSize(QSize(16, 16));
            // Nor its least margins, 15 px a side, a third of the grid between the panels.
            rect->setMinimumMargins(QMargins(3, 3, 3, 3));
            const bool raw = !scaler.isIdentity() && scaler.scale.size() > r;
            for (QCPAxis* a : rect->axes()) {
                a->setTickLabels(false);
                a->grid()->setVisible(false);
                const bool horizontal = a->orientation() == Qt::Horizontal;
                const int column = horizontal ? c : r;
                // At most as many round ticks as the panel has room for (updateLayout), in
                // the data's units where the scaling is known.
                static const Scaler identity; // no copy of the scaler for an unscaled axis
                const Scaler& units = raw && !(r == c && !horizontal) ? scaler : identity;
                auto* ticker = new RawUnitsTicker(units, column);
                ticker->setAtMost(true);
                a->setTicker(QSharedPointer<QCPAxisTicker>(ticker));
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
        // The colour bar's band below this panel's peak (a flatter panel does not stretch its
        // few nats over every colour).
        const double hi = g.logDensity.maxCoeff();
        map->setDataRange(QCPRange(hi - kBandNats, hi));
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
