// SPDX-License-Identifier: MIT
// The optimizer trace plot: loss and monitors per iteration.
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
    addPanel(QStringLiteral("loss L(α): natural, Newton"), true);
    addPanel(QStringLiteral("share f(xᵢ) < 0"), false);
    addPanel(QStringLiteral("residual max|Nαᵢ(Kα)ᵢ−1|"), true);
    m_panels.last()->axis(QCPAxis::atBottom)->setLabel(QStringLiteral("iteration"));
    // The standard run's loss on its own (right) axis: it may run to 1e13 while the natural
    // run settles near 1.
    QCPAxis* right = m_panels[0]->axis(QCPAxis::atRight);
    right->setVisible(true);
    makeLogAxis(right);
    right->setLabel(QStringLiteral("standard run's loss"));
    right->setLabelColor(colors::standard());
    right->setTickLabelColor(colors::standard());
    m_divergenceLabel = new QCPItemText(this);
    m_divergenceLabel->setClipAxisRect(m_panels[0]);
    m_divergenceLabel->position->setAxes(m_panels[0]->axis(QCPAxis::atBottom),
                                         m_panels[0]->axis(QCPAxis::atLeft));
    m_divergenceLabel->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    m_divergenceLabel->position->setAxisRect(m_panels[0]);
    m_divergenceLabel->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    m_divergenceLabel->setPadding(QMargins(6, 2, 6, 2));
    m_divergenceLabel->setColor(colors::standard());
    m_divergenceLabel->setBrush(QColor(255, 255, 255, 220));
    m_divergenceLabel->setFont(QFont(font().family(), 9, QFont::Bold));
    m_divergenceLabel->setVisible(false);
    auto* group = new QCPMarginGroup(this);
    for (auto* r : m_panels) {
        r->setMarginGroup(QCP::msLeft | QCP::msRight, group); // aligned iteration axes
    }
    // Legend in the first panel.
    legend = new QCPLegend;
    m_panels.first()->insetLayout()->addElement(legend, Qt::AlignTop | Qt::AlignRight);
    legend->setLayer(QStringLiteral("legend"));
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
    applyPlotStyle(this);
}

QCPAxisRect* TracePlot::addPanel(const QString& yLabel, bool logScale)
{
    auto* rect = new QCPAxisRect(this);
    plotLayout()->addElement(m_panels.size(), 0, rect);
    rect->axis(QCPAxis::atLeft)->setLabel(yLabel);
    if (logScale) {
        makeLogAxis(rect->axis(QCPAxis::atLeft));
    }
    // A divergence marker, hidden until a run diverges.
    auto* line = new QCPItemStraightLine(this);
    line->setClipAxisRect(rect);
    for (QCPItemPosition* p : {line->point1, line->point2}) {
        p->setAxes(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
        p->setTypeY(QCPItemPosition::ptAxisRectRatio);
        p->setAxisRect(rect);
    }
    line->setPen(QPen(colors::standard(), 1.2, Qt::DashDotLine));
    line->setVisible(false);
    m_divergenceLines << line;
    m_panels << rect;
    return rect;
}

void TracePlot::makeLogAxis(QCPAxis* axis)
{
    axis->setScaleType(QCPAxis::stLogarithmic);
    useLogTicks(axis);
}

void TracePlot::useLogTicks(QCPAxis* axis)
{
    // Over decades every tick is a power of ten, all written 10ⁿ; within one decade (a
    // converged loss) plain numbers read better than 2·10⁰.
    const bool decades = axis->range().lower > 0 && axis->range().upper / axis->range().lower > 10;
    const bool isLog = !axis->ticker().dynamicCast<QCPAxisTickerLog>().isNull();
    if (decades && !isLog) {
        auto ticker = QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog);
        ticker->setTickCount(4);
        axis->setTicker(ticker);
        axis->setNumberFormat(QStringLiteral("eb"));
        axis->setNumberPrecision(0);
    } else if (!decades && isLog) {
        axis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
        axis->setNumberFormat(QStringLiteral("g"));
        axis->setNumberPrecision(4);
    }
}

QCPAxis* TracePlot::lossAxisOf(const std::string& run)
{
    return !m_fista && run == "standard" ? m_panels[0]->axis(QCPAxis::atRight)
                                         : m_panels[0]->axis(QCPAxis::atLeft);
}

void TracePlot::setRunVisible(const std::string& run, bool visible)
{
    m_hidden[run] = !visible;
    auto it = m_graphs.find(run);
    if (it == m_graphs.end()) {
        return;
    }
    for (QCPGraph* g : it->second) {
        g->setVisible(visible);
    }
    rescalePanels();
    replot(rpQueuedReplot);
}

QString TracePlot::divergenceText() const
{
    return m_divergenceLabel->visible() ? m_divergenceLabel->text() : QString();
}

void TracePlot::markDivergence(const std::vector<NamedTrace>& runs)
{
    QStringList said;
    double at = -1.0;
    for (const NamedTrace& t : runs) {
        if (t.status != SolverStatus::Diverged || t.rows.empty()) {
            continue;
        }
        // The last iterate with a finite loss: where the run left every sensible range.
        int last = t.rows.front().iteration;
        for (const TraceRow& r : t.rows) {
            last = std::isfinite(r.loss) ? r.iteration : last;
        }
        at = std::max(at, double(last));
        said << QStringLiteral("%1 diverged at iteration %2").arg(styleOf(t.run).name).arg(last);
    }
    for (QCPItemStraightLine* line : m_divergenceLines) {
        line->setVisible(at >= 0.0);
        line->point1->setCoords(at, 0.0);
        line->point2->setCoords(at, 1.0);
    }
    m_divergenceLabel->setVisible(at >= 0.0);
    m_divergenceLabel->setText(said.join(QLatin1Char('\n')));
    m_divergenceLabel->position->setCoords(at, 0.12);
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
        QCPAxis* value = rect == m_panels[0] ? lossAxisOf(run) : rect->axis(QCPAxis::atLeft);
        auto* g = addGraph(rect->axis(QCPAxis::atBottom), value);
        g->setPen(QPen(style.color, 2, style.pen));
        g->setName(style.name);
        g->setVisible(!m_hidden[run]);
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
                         : QStringLiteral("loss L(α): natural, Newton"));
    m_panels[0]->axis(QCPAxis::atRight)->setVisible(!fista);
    QCPAxis* middle = m_panels[1]->axis(QCPAxis::atLeft);
    middle->setLabel(fista ? QStringLiteral("MMD² part of J") : QStringLiteral("share f(xᵢ) < 0"));
    middle->setScaleType(fista ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    middle->setTicker(fista ? QSharedPointer<QCPAxisTicker>(new QCPAxisTickerLog)
                            : QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
    // The format goes with the ticker: the log one's "eb" left on a linear share axis read
    // "0·10⁰, 2·10⁻¹" (issue 24).
    middle->setNumberFormat(fista ? QStringLiteral("eb") : QStringLiteral("g"));
    middle->setNumberPrecision(fista ? 0 : 4);
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
    // The standard run's own loss axis only while there is a standard run to read on it.
    const auto standard = m_graphs.find("standard");
    m_panels[0]
        ->axis(QCPAxis::atRight)
        ->setVisible(!fista && standard != m_graphs.end() &&
                     !standard->second.first()->data()->isEmpty());
    markDivergence(runs);
    rescalePanels();
    rebuildLegend();
    replot(QCustomPlot::rpQueuedReplot);
}

void TracePlot::rebuildLegend()
{
    // A hidden legend item keeps its row: the legend is rebuilt with the runs it lists, the
    // paper's two first, then the fit's own, then the experiment's. Only runs with rows: a
    // large fit's comparison waits for the view, and its entries would name empty curves.
    for (auto& [run, graphs] : m_graphs) {
        graphs.first()->removeFromLegend(legend);
    }
    const bool experiment = hasExperiment();
    for (QCPGraph* g : m_experiment) {
        g->removeFromLegend(legend);
    }
    std::vector<std::string> order{"natural", "standard"};
    for (const auto& [run, graphs] : m_graphs) {
        if (run != "natural" && run != "standard") {
            order.push_back(run);
        }
    }
    for (const std::string& run : order) {
        QCPGraph* g = m_graphs.at(run).first();
        if (!g->data()->isEmpty()) {
            g->addToLegend(legend);
        }
    }
    for (QCPGraph* g : m_experiment) {
        if (experiment) {
            g->addToLegend(legend);
        }
    }
}

void TracePlot::rescalePanels()
{
    // One iteration axis for all panels (the runs are compared at the same iteration); each
    // value axis fitted to its own visible curves, with room so a converged curve does not lie
    // on the frame.
    double upper = 1.0;
    std::map<QCPAxis*, QVector<QCPGraph*>> byAxis;
    for (int k = 0; k < m_panels.size(); ++k) {
        for (auto& [run, g] : m_graphs) {
            byAxis[g[k]->valueAxis()] << g[k];
        }
    }
    byAxis[m_experiment[0]->valueAxis()] << m_experiment[0] << m_experiment[1];
    for (auto& [axis, graphs] : byAxis) {
        bool first = true;
        for (QCPGraph* g : graphs) {
            bool found = false;
            const QCPRange keys = g->getKeyRange(found);
            if (!found || !g->visible()) {
                continue;
            }
            upper = std::max(upper, keys.upper);
            g->rescaleValueAxis(!first, true);
            first = false;
        }
        if (axis->scaleType() == QCPAxis::stLogarithmic && !first) {
            axis->setRange(axis->range().lower / 1.5, axis->range().upper * 1.5);
            useLogTicks(axis);
        } else if (!first) {
            const double pad = std::max(1e-12, 0.05 * axis->range().size());
            axis->setRange(axis->range().lower - pad, axis->range().upper + pad);
        }
    }
    for (QCPAxisRect* panel : m_panels) {
        panel->axis(QCPAxis::atBottom)->setRange(-0.01 * upper, upper * 1.01);
    }
    if (!m_fista) {
        m_panels[1]->axis(QCPAxis::atLeft)->setRange(-0.05, 1.05);
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
