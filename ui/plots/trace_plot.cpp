// SPDX-License-Identifier: MIT
#include "ui/plots/trace_plot.h"

#include "ui/plots/plot_style.h"

#include <cmath>

namespace sosrep::ui {

TracePlot::TracePlot(QWidget* parent) : QCustomPlot(parent)
{
    plotLayout()->clear();
    // L >= 1 for a unit-diagonal kernel (|(K a)_i|^2 <= a^T K a by Cauchy-Schwarz), so a log
    // axis is safe and shows a diverging run next to a converging one.
    addPanel(QStringLiteral("loss L(α)"), true);
    addPanel(QStringLiteral("share f(xᵢ) < 0"), false);
    addPanel(QStringLiteral("residual max|Nαᵢ(Kα)ᵢ−1|"), true);
    m_panels.last()->axis(QCPAxis::atBottom)->setLabel(QStringLiteral("iteration"));
    auto* group = new QCPMarginGroup(this);
    for (auto* r : m_panels) {
        r->setMarginGroup(QCP::msLeft, group);
    }
    // Legend in the first panel.
    legend = new QCPLegend;
    m_panels.first()->insetLayout()->addElement(legend, Qt::AlignTop | Qt::AlignRight);
    legend->setLayer(QStringLiteral("legend"));
    legend->setFont(QFont(font().family(), 8));
    legend->addItem(new QCPPlottableLegendItem(legend, m_natural.first()));
    legend->addItem(new QCPPlottableLegendItem(legend, m_standard.first()));
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
}

QCPAxisRect* TracePlot::addPanel(const QString& yLabel, bool logScale)
{
    auto* rect = new QCPAxisRect(this);
    plotLayout()->addElement(m_panels.size(), 0, rect);
    rect->axis(QCPAxis::atLeft)->setLabel(yLabel);
    if (logScale) {
        rect->axis(QCPAxis::atLeft)->setScaleType(QCPAxis::stLogarithmic);
        rect->axis(QCPAxis::atLeft)
            ->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
    }
    auto* nat = addGraph(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
    nat->setPen(QPen(colors::natural(), 2));
    nat->setName(QStringLiteral("natural gradient (eq. 8)"));
    auto* std_ = addGraph(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
    std_->setPen(QPen(colors::standard(), 2, Qt::DashLine));
    std_->setName(QStringLiteral("standard gradient (eq. 7)"));
    m_panels << rect;
    m_natural << nat;
    m_standard << std_;
    return rect;
}

void TracePlot::setTraces(const std::vector<TraceRow>& natural,
                          const std::vector<TraceRow>& standard)
{
    auto fill = [](QCPGraph* g, const std::vector<TraceRow>& rows, int which) {
        QVector<double> x, y;
        x.reserve(int(rows.size()));
        y.reserve(int(rows.size()));
        for (const TraceRow& r : rows) {
            const double v = which == 0 ? r.loss : which == 1 ? r.negativeFraction : r.residual;
            x << r.iteration;
            // Non-finite values (a diverging run) and zeros on the log axis become gaps.
            y << (std::isfinite(v) && (which == 1 || v > 0) ? v : qQNaN());
        }
        g->setData(x, y, true);
    };
    for (int k = 0; k < m_panels.size(); ++k) {
        fill(m_natural[k], natural, k);
        fill(m_standard[k], standard, k);
        bool found = false;
        QCPRange xr = m_natural[k]->getKeyRange(found);
        QCPRange xs = m_standard[k]->getKeyRange(found);
        xr.expand(xs);
        m_panels[k]->axis(QCPAxis::atBottom)->setRange(0, std::max(1.0, xr.upper));
        m_natural[k]->rescaleValueAxis(false, true);
        m_standard[k]->rescaleValueAxis(true, true);
    }
    m_panels[1]->axis(QCPAxis::atLeft)->setRange(-0.02, 1.02);
    replot(QCustomPlot::rpQueuedReplot);
}

} // namespace sosrep::ui
