// SPDX-License-Identifier: MIT
#include "ui/plots/trace_plot.h"

#include "ui/plots/plot_style.h"

#include <cmath>

namespace sosrep::ui {
namespace {

struct RunStyle
{
    QColor color;
    Qt::PenStyle pen;
    QString name;
};

RunStyle styleOf(const std::string& run)
{
    if (run == "natural") {
        return {colors::natural(), Qt::SolidLine, QStringLiteral("natural gradient (eq. 8)")};
    }
    if (run == "standard") {
        return {colors::standard(), Qt::DashLine, QStringLiteral("standard gradient (eq. 7)")};
    }
    if (run == "fista") {
        return {colors::natural(), Qt::SolidLine, QStringLiteral("FISTA (kernel SoS, eq. 14)")};
    }
    if (run == "newton") {
        return {colors::kde(), Qt::DotLine, QStringLiteral("Newton (the fit's solver)")};
    }
    return {Qt::darkGray, Qt::DashDotLine, QString::fromStdString(run)};
}

} // namespace

TracePlot::TracePlot(QWidget* parent) : QCustomPlot(parent)
{
    setAutoAddPlottableToLegend(false); // one legend entry per run, added in graphsOf()
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
    // The two runs of the paper's comparison are always in the legend, in this order.
    graphsOf("natural");
    graphsOf("standard");
    for (int k = 0; k < 2; ++k) {
        QCPAxisRect* r = m_panels[1];
        m_experiment[k] = addGraph(r->axis(QCPAxis::atBottom), r->axis(QCPAxis::atLeft));
        m_experiment[k]->setPen(QPen(k == 0 ? colors::natural() : colors::standard(), 3.5,
                                     k == 0 ? Qt::SolidLine : Qt::DashLine));
        m_experiment[k]->removeFromLegend(legend); // listed only while an experiment is shown
    }
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
    m_panels << rect;
    return rect;
}

const QVector<QCPGraph*>& TracePlot::graphsOf(const std::string& run)
{
    auto it = m_graphs.find(run);
    if (it != m_graphs.end()) {
        return it->second;
    }
    const RunStyle style = styleOf(run);
    QVector<QCPGraph*> graphs;
    for (QCPAxisRect* rect : m_panels) {
        auto* g = addGraph(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
        g->setPen(QPen(style.color, 2, style.pen));
        g->setName(style.name);
        graphs << g;
    }
    legend->addItem(new QCPPlottableLegendItem(legend, graphs.first()));
    return m_graphs.emplace(run, graphs).first->second;
}

QStringList TracePlot::runs() const
{
    QStringList out;
    for (const auto& [run, graphs] : m_graphs) {
        if (!graphs.first()->data()->isEmpty()) {
            out << QString::fromStdString(run);
        }
    }
    return out;
}

void TracePlot::setMode(bool fista)
{
    if (fista == m_fista) {
        return;
    }
    m_fista = fista;
    m_panels[0]
        ->axis(QCPAxis::atLeft)
        ->setLabel(fista ? QStringLiteral("objective J(B) = MMD² + λ·reg")
                         : QStringLiteral("loss L(α)"));
    QCPAxis* middle = m_panels[1]->axis(QCPAxis::atLeft);
    middle->setLabel(fista ? QStringLiteral("MMD² part of J") : QStringLiteral("share f(xᵢ) < 0"));
    middle->setScaleType(fista ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    middle->setTicker(fista ? QSharedPointer<QCPAxisTicker>(new QCPAxisTickerLog)
                            : QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
    m_panels[2]
        ->axis(QCPAxis::atLeft)
        ->setLabel(fista ? QStringLiteral("relative change |ΔJ|/J")
                         : QStringLiteral("residual max|Nαᵢ(Kα)ᵢ−1|"));
}

void TracePlot::setTraces(const std::vector<NamedTrace>& runs)
{
    bool fista = !runs.empty();
    for (const NamedTrace& t : runs) {
        fista = fista && t.run == "fista";
    }
    setMode(fista);
    auto fill = [fista](QCPGraph* g, const std::vector<TraceRow>& rows, int which) {
        QVector<double> x, y;
        x.reserve(int(rows.size()));
        y.reserve(int(rows.size()));
        for (const TraceRow& r : rows) {
            const double middle = fista ? r.mmd : r.negativeFraction;
            const double v = which == 0 ? r.loss : which == 1 ? middle : r.residual;
            x << r.iteration;
            // Non-finite values (a diverging run) and zeros on the log axis become gaps.
            y << (std::isfinite(v) && ((which == 1 && !fista) || v > 0) ? v : qQNaN());
        }
        g->setData(x, y, true);
    };
    for (auto& [run, graphs] : m_graphs) {
        for (QCPGraph* g : graphs) {
            g->data()->clear();
        }
    }
    for (const NamedTrace& t : runs) {
        const QVector<QCPGraph*>& graphs = graphsOf(t.run);
        for (int k = 0; k < m_panels.size(); ++k) {
            fill(graphs[k], t.rows, k);
        }
    }
    rescalePanels();
    // The paper's two runs stay in the legend for SOSREP; a kernel-SoS trace shows only its own.
    for (auto& [run, graphs] : m_graphs) {
        if (QCPAbstractLegendItem* item = legend->itemWithPlottable(graphs.first())) {
            item->setVisible(!graphs.first()->data()->isEmpty() ||
                             (!m_fista && (run == "natural" || run == "standard")));
        }
    }
    replot(QCustomPlot::rpQueuedReplot);
}

void TracePlot::rescalePanels()
{
    // One iteration axis for all panels (the runs are compared at the same iteration).
    double upper = 1.0;
    for (int k = 0; k < m_panels.size(); ++k) {
        QVector<QCPGraph*> graphs;
        for (auto& [run, g] : m_graphs) {
            graphs << g[k];
        }
        if (k == 1) {
            graphs << m_experiment[0] << m_experiment[1];
        }
        bool first = true;
        for (QCPGraph* g : graphs) {
            bool found = false;
            const QCPRange r = g->getKeyRange(found);
            if (found) {
                upper = std::max(upper, r.upper);
                g->rescaleValueAxis(!first, true);
                first = false;
            }
        }
    }
    for (QCPAxisRect* panel : m_panels) {
        panel->axis(QCPAxis::atBottom)->setRange(0, upper);
    }
    if (!m_fista) {
        m_panels[1]->axis(QCPAxis::atLeft)->setRange(-0.02, 1.02);
    }
}

void TracePlot::setExperiment(const NegativityRun* run, int worst)
{
    for (int k = 0; k < 2; ++k) {
        QCPGraph* g = m_experiment[k];
        g->data()->clear();
        // A hidden legend item would still take its row: add and remove instead.
        if (!run) {
            g->removeFromLegend(legend);
            continue;
        }
        g->addToLegend(legend);
        const Matrix& shares = k == 0 ? run->natural : run->standard;
        const Vector w = NegativityRun::worstMean(shares, worst);
        QVector<double> x(int(w.size())), y(int(w.size()));
        for (int t = 0; t < int(w.size()); ++t) {
            x[t] = t;
            y[t] = w(t);
        }
        g->setData(x, y, true);
        const int diverged =
            NegativityRun::divergedCount(k == 0 ? run->naturalDivergedAt : run->standardDivergedAt);
        g->setName(
            QStringLiteral("%1: worst %2 of %3 starts%4")
                .arg(k == 0 ? QStringLiteral("natural") : QStringLiteral("standard"))
                .arg(worst)
                .arg(shares.cols())
                .arg(diverged > 0 ? QStringLiteral(" (%1 diverged)").arg(diverged) : QString()));
    }
    rescalePanels();
    replot(QCustomPlot::rpQueuedReplot);
}

} // namespace sosrep::ui
