// SPDX-License-Identifier: MIT
// The ratio view's plots: map, curve, histogram and J surface.
#include "ui/plots/ratio_plot.h"

#include "core/grid/contour.h"
#include "ui/controller/ratio_controller.h"
#include "ui/plots/plot_style.h"

#include <algorithm>
#include <cmath>

namespace sosrep::ui {
namespace {

constexpr double kMaxLogRatio = 6.907755; // log 1000: the colour scale stops at ratios 1e+-3
constexpr int kMaxPoints = 3000;          // points drawn per sample (evenly strided beyond)
constexpr int kWideFrom = 820;            // plot width (px) from which the panels sit side by side

/// ColorBrewer's RdBu, reversed: blue where q < p, white at q = p, red where q > p.
QCPColorGradient diverging()
{
    QCPColorGradient g;
    g.clearColorStops();
    g.setColorStopAt(0.0, QColor(33, 102, 172));
    g.setColorStopAt(0.25, QColor(103, 169, 207));
    g.setColorStopAt(0.5, QColor(247, 247, 247));
    g.setColorStopAt(0.75, QColor(239, 138, 98));
    g.setColorStopAt(1.0, QColor(178, 24, 43));
    g.setColorInterpolation(QCPColorGradient::ciRGB);
    return g;
}

void setPoints(QCPGraph* g, const Matrix& x, int xc, int yc, double fixedY)
{
    QVector<double> a, b;
    const Eigen::Index stride = std::max<Eigen::Index>(1, x.rows() / kMaxPoints);
    for (Eigen::Index i = 0; i < x.rows(); i += stride) {
        a << x(i, xc);
        b << (x.cols() > 1 ? x(i, yc) : fixedY);
    }
    g->setData(a, b);
}

/// log r on the grid; where f <= 0 (or not finite), -kMaxLogRatio, counted in `nonPositive`.
Matrix logRatioOf(const Matrix& grid, int& nonPositive)
{
    Matrix logRatio(grid.rows(), grid.cols());
    for (Eigen::Index j = 0; j < grid.rows(); ++j) {
        for (Eigen::Index i = 0; i < grid.cols(); ++i) {
            const double v = grid(j, i);
            if (v > 0.0 && std::isfinite(v)) {
                logRatio(j, i) = std::log(v);
            } else {
                logRatio(j, i) = -kMaxLogRatio;
                ++nonPositive;
            }
        }
    }
    return logRatio;
}

} // namespace

QString RatioPlot::nameOf(const QStringList& names, int c)
{
    return c >= 0 && c < names.size() ? names[c] : QStringLiteral("x%1").arg(c + 1);
}

RatioPlot::RatioPlot(QWidget* parent) : QCustomPlot(parent)
{
    buildBlocks();
    buildMapPanel();
    buildSurfacePanel();
    buildHistogramPanel();
    setNoAntialiasingOnDrag(true);

    connect(selectionRect(), &QCPSelectionRect::accepted, this,
            [this](const QRect& r, QMouseEvent*) {
                const QCPAxis* x = m_mapRect->axis(QCPAxis::atBottom);
                const QCPAxis* y = m_mapRect->axis(QCPAxis::atLeft);
                setPickMode(false);
                emit rectanglePicked(x->pixelToCoord(r.left()), x->pixelToCoord(r.right()),
                                     y->pixelToCoord(r.bottom()), y->pixelToCoord(r.top()));
            });
    applyPlotStyle(this);
}

void RatioPlot::buildBlocks()
{
    setAutoAddPlottableToLegend(false);
    plotLayout()->clear();
    m_title = new QCPTextElement(this, QString(), QFont(font().family(), 10, QFont::Bold));
    plotLayout()->addElement(0, 0, m_title);
    m_body = new QCPLayoutGrid;
    plotLayout()->addElement(1, 0, m_body);
    // Three blocks, arranged side by side or stacked by arrange() as the plot's width allows.
    m_mapBlock = new QCPLayoutGrid;
    m_mapRect = new QCPAxisRect(this);
    m_mapBlock->addElement(0, 0, m_mapRect);
    m_mapScale = new QCPColorScale(this);
    m_mapBlock->addElement(0, 1, m_mapScale);
    m_mapBlock->setColumnStretchFactors({1.0, 0.01});
    m_surfaceBlock = new QCPLayoutGrid;
    m_surfaceRect = new QCPAxisRect(this);
    m_surfaceBlock->addElement(0, 0, m_surfaceRect);
    m_surfaceScale = new QCPColorScale(this);
    m_surfaceBlock->addElement(0, 1, m_surfaceScale);
    m_surfaceBlock->setColumnStretchFactors({1.0, 0.01});
    m_histRect = new QCPAxisRect(this);
    arrange(true);
    auto* mapGroup = new QCPMarginGroup(this);
    m_mapRect->setMarginGroup(QCP::msTop | QCP::msBottom, mapGroup);
    m_mapScale->setMarginGroup(QCP::msTop | QCP::msBottom, mapGroup);
    auto* surfaceGroup = new QCPMarginGroup(this);
    m_surfaceRect->setMarginGroup(QCP::msTop | QCP::msBottom, surfaceGroup);
    m_surfaceScale->setMarginGroup(QCP::msTop | QCP::msBottom, surfaceGroup);
}

void RatioPlot::buildMapPanel()
{
    QCPAxis* mx = m_mapRect->axis(QCPAxis::atBottom);
    QCPAxis* my = m_mapRect->axis(QCPAxis::atLeft);
    m_map = new QCPColorMap(mx, my);
    m_map->setColorScale(m_mapScale);
    m_map->setGradient(diverging());
    m_map->setInterpolate(true);
    m_mapScale->setType(QCPAxis::atRight);
    m_zero = new QCPCurve(mx, my);
    m_zero->setPen(QPen(QColor(20, 20, 20), 1.6));
    m_zero->setName(tr("log ratio = 0 (q = p)"));
    m_pPoints = addGraph(mx, my);
    m_pPoints->setLineStyle(QCPGraph::lsNone);
    m_pPoints->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QColor(0, 0, 0, 170),
                                               QColor(255, 255, 255, 120), 4));
    m_qPoints = addGraph(mx, my);
    m_qPoints->setLineStyle(QCPGraph::lsNone);
    m_qPoints->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssTriangle, QPen(QColor(0, 90, 50), 1.2), QBrush(), 5));
    m_qRect = new QCPItemRect(this);
    for (QCPItemPosition* corner : {m_qRect->topLeft, m_qRect->bottomRight}) {
        corner->setAxes(mx, my);
    }
    m_qRect->setClipAxisRect(m_mapRect);
    m_qRect->setPen(QPen(QColor(0, 90, 50), 1.6, Qt::DashLine));
    m_qRect->setBrush(Qt::NoBrush);
    m_qRect->setVisible(false);
    auto* legend = new QCPLegend;
    m_mapRect->insetLayout()->addElement(legend, Qt::AlignTop | Qt::AlignRight);
    legend->setLayer(QStringLiteral("legend"));
    m_pPoints->addToLegend(legend);
    m_qPoints->addToLegend(legend);
    m_zero->addToLegend(legend);
}

void RatioPlot::buildSurfacePanel()
{
    QCPAxis* sx = m_surfaceRect->axis(QCPAxis::atBottom);
    QCPAxis* sy = m_surfaceRect->axis(QCPAxis::atLeft);
    m_surface = new QCPColorMap(sx, sy);
    m_surface->setColorScale(m_surfaceScale);
    m_surface->setGradient(colormap(QStringLiteral("viridis")));
    m_surface->setInterpolate(false);
    m_surfaceScale->setType(QCPAxis::atRight);
    m_choice = addGraph(sx, sy);
    m_choice->setLineStyle(QCPGraph::lsNone);
    m_choice->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssStar, QPen(Qt::white, 2.0), QBrush(), 14));
    m_shownLambda = addGraph(sx, sy);
    m_shownLambda->setLineStyle(QCPGraph::lsNone);
    m_shownLambda->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(QColor(255, 80, 80), 2.0), QBrush(), 11));
}

void RatioPlot::buildHistogramPanel()
{
    QCPAxis* hx = m_histRect->axis(QCPAxis::atBottom);
    QCPAxis* hy = m_histRect->axis(QCPAxis::atLeft);
    m_bars = new QCPBars(hx, hy);
    m_bars->setPen(Qt::NoPen);
    m_bars->setBrush(colors::natural());
    m_bars->setWidthType(QCPBars::wtPlotCoords);
    m_one = new QCPItemStraightLine(this);
    m_one->setClipAxisRect(m_histRect);
    m_one->point1->setAxes(hx, hy);
    m_one->point2->setAxes(hx, hy);
    m_one->setPen(QPen(QColor(60, 60, 60), 1.2, Qt::DashLine));
}

void RatioPlot::arrange(bool wide)
{
    if (m_arranged && m_wide == wide) {
        return;
    }
    m_arranged = true;
    m_wide = wide;
    for (QCPLayoutElement* e : {static_cast<QCPLayoutElement*>(m_mapBlock),
                                static_cast<QCPLayoutElement*>(m_surfaceBlock),
                                static_cast<QCPLayoutElement*>(m_histRect)}) {
        if (e->layout()) {
            e->layout()->take(e);
        }
    }
    m_body->clear(); // deletes the emptied container of the previous arrangement
    m_body->simplify();
    m_body->addElement(0, 0, m_mapBlock);
    auto* rest = new QCPLayoutGrid;
    if (wide) {
        // Map on the left, tuning surface over the histogram on the right.
        m_body->addElement(0, 1, rest);
        rest->addElement(0, 0, m_surfaceBlock);
        rest->addElement(1, 0, m_histRect);
        m_body->setColumnStretchFactors({3.0, 2.4});
    } else {
        // Narrow windows: the map on top, the two small panels side by side beneath.
        m_body->addElement(1, 0, rest);
        rest->addElement(0, 0, m_surfaceBlock);
        rest->addElement(0, 1, m_histRect);
        rest->setColumnStretchFactors({1.3, 1.0});
        m_body->setRowStretchFactors({3.0, 2.0});
    }
}

void RatioPlot::resizeEvent(QResizeEvent* event)
{
    arrange(width() >= kWideFrom);
    QCustomPlot::resizeEvent(event);
}

void RatioPlot::setPickMode(bool on)
{
    setSelectionRectMode(on ? QCP::srmCustom : QCP::srmNone);
    setCursor(on ? Qt::CrossCursor : Qt::ArrowCursor);
}

void RatioPlot::showSamples(const Matrix& p, const Matrix& q, int xc, int yc,
                            const QStringList& names, const QString& title)
{
    m_map->data()->clear();
    m_zero->data()->clear();
    m_surface->data()->clear();
    m_choice->data()->clear();
    m_shownLambda->data()->clear();
    m_bars->data()->clear();
    m_mapX = xc;
    m_mapY = yc;
    if (p.rows() > 0) {
        setPoints(m_pPoints, p, xc, yc, 0.0);
        setPoints(m_qPoints, q, xc, yc, 0.0);
        m_pPoints->setName(tr("p sample (%1 rows)").arg(p.rows()));
        m_qPoints->setName(tr("q sample (%1 rows)").arg(q.rows()));
        m_pPoints->rescaleAxes();
        m_qPoints->rescaleAxes(true);
        m_mapRect->axis(QCPAxis::atBottom)->setLabel(nameOf(names, xc));
        m_mapRect->axis(QCPAxis::atLeft)->setLabel(nameOf(names, yc));
    } else {
        m_pPoints->data()->clear();
        m_qPoints->data()->clear();
        m_mapRect->axis(QCPAxis::atBottom)->setLabel(QString());
        m_mapRect->axis(QCPAxis::atLeft)->setLabel(QString());
    }
    m_title->setText(title);
    clearResultPanels();
    replot();
}

void RatioPlot::clearResultPanels()
{
    // Nothing of a previous result stays (issue 38: the colour bar's "±1.2, f <= 0 in 49.8 %",
    // the J axes and the weights' range outlived new data, a new q and an opened project), and
    // the empty panels draw no scale, axes or line pretending to show something.
    m_map->setVisible(false);
    m_mapScale->setVisible(false);
    m_mapScale->axis()->setLabel(QString());
    m_zero->data()->clear();
    m_surfaceScale->setVisible(false);
    m_surfaceScale->axis()->setLabel(QString());
    for (QCPAxis* a :
         {m_surfaceRect->axis(QCPAxis::atBottom), m_surfaceRect->axis(QCPAxis::atLeft)}) {
        a->setTicker(QSharedPointer<QCPAxisTicker>::create());
        a->setRange(0.0, 1.0);
        a->setLabel(QString());
    }
    setAxisRectEmpty(m_surfaceRect, true);
    m_histRect->axis(QCPAxis::atBottom)->setLabel(QString());
    m_histRect->axis(QCPAxis::atLeft)->setLabel(QString());
    m_histRect->axis(QCPAxis::atBottom)->setRange(0.0, 1.0);
    m_histRect->axis(QCPAxis::atLeft)->setRange(0.0, 1.0);
    setAxisRectEmpty(m_histRect, true);
    m_one->setVisible(false);
}

void RatioPlot::showResult(const RatioResult& r, const Matrix& p, const Matrix& q,
                           const QStringList& names)
{
    setAxisRectEmpty(m_surfaceRect, false);
    setAxisRectEmpty(m_histRect, false);
    drawMap(r, p, q, names);
    drawSurface(r);
    drawHistogram(r);
    const RatioModel& m = *r.shown;
    QString title = tr("Density ratio q/p by %1").arg(QString::fromStdString(m.estimator()));
    if (m.t() > 0.0) {
        title += tr(": t = %1").arg(QString::number(m.t(), 'g', 3));
    }
    if (m.estimator() == "fire" || m.estimator() == "ulsif") {
        title += tr(", λ = %1").arg(QString::number(m.lambda(), 'g', 3));
    }
    if (r.grid.rows() > 1 && p.cols() > 2) {
        title += tr(" (map: a slice, other columns at their p means)");
    }
    m_title->setText(title);
    replot();
}

void RatioPlot::drawMap(const RatioResult& r, const Matrix& p, const Matrix& q,
                        const QStringList& names)
{
    const int ny = int(r.grid.rows()), nx = int(r.grid.cols());
    QCPAxis* x = m_mapRect->axis(QCPAxis::atBottom);
    QCPAxis* y = m_mapRect->axis(QCPAxis::atLeft);
    x->setLabel(nameOf(names, r.xColumn));
    m_mapX = r.xColumn;
    m_mapY = r.yColumn;
    setPoints(m_pPoints, p, r.xColumn, r.yColumn, 0.0);
    setPoints(m_qPoints, q, r.xColumn, r.yColumn, 0.0);
    m_pPoints->setName(tr("p sample (%1 rows)").arg(p.rows()));
    m_qPoints->setName(tr("q sample (%1 rows)").arg(q.rows()));
    if (ny == 1) {
        drawCurve(r, x, y); // one column: the ratio as a curve, the samples as rugs at 0
        return;
    }
    m_map->setVisible(true);
    m_mapScale->setVisible(true);
    y->setLabel(nameOf(names, r.yColumn));
    int nonPositive = 0;
    const Matrix logRatio = logRatioOf(r.grid, nonPositive);
    // Symmetric about 0 and set by the largest ratio, so where q > p reads at once; lower
    // values (f near 0, or f <= 0) run into the lowest colour, as the label says.
    const double top = logRatio.maxCoeff();
    const double extent = std::clamp(top, std::log(2.0), kMaxLogRatio);
    const bool clipped = logRatio.minCoeff() < -extent || top > extent;
    m_map->data()->setSize(nx, ny);
    m_map->data()->setRange(
        QCPRange(r.xMin + (r.xMax - r.xMin) * 0.5 / nx, r.xMax - (r.xMax - r.xMin) * 0.5 / nx),
        QCPRange(r.yMin + (r.yMax - r.yMin) * 0.5 / ny, r.yMax - (r.yMax - r.yMin) * 0.5 / ny));
    std::vector<double> xs(static_cast<size_t>(nx)), ys(static_cast<size_t>(ny));
    for (int i = 0; i < nx; ++i) {
        xs[size_t(i)] = r.xMin + (r.xMax - r.xMin) * (i + 0.5) / nx;
    }
    for (int j = 0; j < ny; ++j) {
        ys[size_t(j)] = r.yMin + (r.yMax - r.yMin) * (j + 0.5) / ny;
    }
    for (int j = 0; j < ny; ++j) {
        for (int i = 0; i < nx; ++i) {
            m_map->data()->setCell(i, j, logRatio(j, i));
        }
    }
    m_map->setDataRange(QCPRange(-extent, extent));
    QString label = tr("log ratio log(q/p)");
    if (nonPositive > 0) {
        label += tr(" (clipped at ±%1; f ≤ 0 in %2 % of cells)")
                     .arg(QString::number(extent, 'f', 1))
                     .arg(QString::number(100.0 * nonPositive / (nx * ny), 'f', 1));
    } else if (clipped) {
        label += tr(" (clipped at ±%1)").arg(QString::number(extent, 'f', 1));
    }
    m_mapScale->axis()->setLabel(label);
    QVector<double> t, a, b;
    int k = 0;
    for (const ContourSegment& s : marchingSquares(logRatio, xs, ys, 0.0)) {
        t << k << k + 1 << k + 2;
        a << s.x0 << s.x1 << qQNaN();
        b << s.y0 << s.y1 << qQNaN();
        k += 3;
    }
    m_zero->setData(t, a, b, true);
    m_zero->setName(tr("log ratio = 0 (q = p)"));
    x->setRange(r.xMin, r.xMax);
    y->setRange(r.yMin, r.yMax);
}

void RatioPlot::drawCurve(const RatioResult& r, QCPAxis* x, QCPAxis* y)
{
    const int nx = int(r.grid.cols());
    // One column: the ratio as a curve, the samples as rugs at 0.
    m_map->data()->clear();
    m_map->setVisible(false);
    m_mapScale->setVisible(false);
    QVector<double> t, a, b;
    for (int i = 0; i < nx; ++i) {
        t << i;
        a << r.xMin + (r.xMax - r.xMin) * (i + 0.5) / nx;
        b << r.grid(0, i);
    }
    m_zero->setData(t, a, b, true);
    m_zero->setName(tr("estimated ratio f(x)"));
    y->setLabel(tr("ratio q/p"));
    x->setRange(r.xMin, r.xMax);
    y->setRange(std::min(0.0, r.grid.minCoeff()) - 0.1, r.grid.maxCoeff() * 1.1 + 0.1);
}

void RatioPlot::drawSurface(const RatioResult& r)
{
    QCPAxis* x = m_surfaceRect->axis(QCPAxis::atBottom);
    QCPAxis* y = m_surfaceRect->axis(QCPAxis::atLeft);
    m_choice->data()->clear();
    m_shownLambda->data()->clear();
    if (!r.model->surface()) {
        m_surface->data()->clear();
        m_surfaceScale->setVisible(false);
        x->setLabel(tr("no tuning: the parameters were given"));
        m_surfaceScale->axis()->setLabel(QString());
        return;
    }
    m_surfaceScale->setVisible(true);
    const JSurface& s = *r.model->surface();
    const int nt = int(s.t.size()), nl = int(s.lambda.size());
    bool positive = true;
    for (Eigen::Index a = 0; a < s.j.rows(); ++a) {
        for (Eigen::Index b = 0; b < s.j.cols(); ++b) {
            positive = positive && (!std::isfinite(s.j(a, b)) || s.j(a, b) > 0.0);
        }
    }
    m_surface->data()->setSize(nt, nl);
    m_surface->data()->setRange(QCPRange(0, nt - 1), QCPRange(0, nl - 1));
    for (int a = 0; a < nt; ++a) {
        for (int b = 0; b < nl; ++b) {
            const double v = s.j(a, b);
            m_surface->data()->setCell(a, b,
                                       std::isfinite(v) ? (positive ? std::log10(v) : v) : qQNaN());
        }
    }
    m_surface->rescaleDataRange(true);
    auto tTicks = QSharedPointer<QCPAxisTickerText>::create();
    for (int a : {0, (nt - 1) / 2, nt - 1}) { // three labels: the cells are narrow
        tTicks->addTick(a, QString::number(s.t[size_t(a)], 'g', 2));
    }
    x->setTicker(tTicks);
    auto lTicks = QSharedPointer<QCPAxisTickerText>::create();
    for (int b = 0; b < nl; ++b) {
        lTicks->addTick(b, QString::number(s.lambda[size_t(b)], 'g', 2));
    }
    y->setTicker(lTicks);
    const bool threshold = r.model->estimator() == "tikde";
    x->setLabel(tr("kernel variance t"));
    y->setLabel(threshold ? tr("threshold τ") : tr("λ"));
    x->setRange(-0.5, nt - 0.5);
    y->setRange(-0.5, nl - 0.5);
    m_surfaceScale->axis()->setLabel((positive ? tr("log10 ") : QString()) +
                                     QString::fromStdString(s.criterion) +
                                     (s.criterion == "J" ? tr(" (held-out folds)") : QString()));
    m_choice->setData({double(s.bestT)}, {double(s.bestLambda)});
    m_choice->setName(tr("choice"));
    // The slider's lambda between the grid's (log-spaced, decreasing) values.
    const double shown = r.shown->lambda();
    if (r.model->hasPath() && shown != r.model->lambda() && nl > 1 && s.lambda.front() > 0.0) {
        const double step = std::log10(s.lambda[1] / s.lambda[0]);
        const double pos = std::log10(shown / s.lambda[0]) / step;
        // Beyond the grid (the slider reaches further than the tuning looked): marked at the
        // grid's edge as a triangle pointing out, not drawn off the panel where nobody sees it.
        const double edge = std::clamp(pos, 0.0, double(nl - 1));
        const bool beyond = edge != pos;
        m_shownLambda->setScatterStyle(QCPScatterStyle(
            beyond
                ? (pos > edge ? QCPScatterStyle::ssTriangle : QCPScatterStyle::ssTriangleInverted)
                : QCPScatterStyle::ssCircle,
            QPen(QColor(255, 80, 80), 2.0), QBrush(), 11));
        m_shownLambda->setName(
            beyond ? tr("slider λ = %1 (beyond the grid)").arg(QString::number(shown, 'g', 3))
                   : tr("slider λ = %1").arg(QString::number(shown, 'g', 3)));
        m_shownLambda->setData({double(s.bestT)}, {edge});
    }
}

void RatioPlot::drawHistogram(const RatioResult& r)
{
    std::vector<double> w(r.weights.data(), r.weights.data() + r.weights.size());
    w.erase(std::remove_if(w.begin(), w.end(), [](double v) { return !std::isfinite(v); }),
            w.end());
    QCPAxis* x = m_histRect->axis(QCPAxis::atBottom);
    QCPAxis* y = m_histRect->axis(QCPAxis::atLeft);
    if (w.empty()) {
        m_bars->data()->clear();
        m_one->setVisible(false);
        return;
    }
    m_one->setVisible(true);
    std::vector<double> sorted = w;
    std::sort(sorted.begin(), sorted.end());
    const double lo = std::min(0.0, sorted.front());
    // The top 0.5 % are left out of the bins (said in the label): one huge weight would squeeze
    // every other bar into the first bin.
    const double hi = std::max(sorted[size_t(0.995 * (sorted.size() - 1))], 1.0) * 1.05;
    const int bins = 40;
    const double width = (hi - lo) / bins;
    QVector<double> centers(bins), counts(bins, 0.0);
    int above = 0;
    for (int b = 0; b < bins; ++b) {
        centers[b] = lo + (b + 0.5) * width;
    }
    for (double v : w) {
        if (v > hi) {
            ++above;
            continue;
        }
        counts[std::clamp(int((v - lo) / width), 0, bins - 1)] += 1.0;
    }
    m_bars->setData(centers, counts, true);
    m_bars->setWidth(width * 0.92);
    const WeightSummary& s = r.summary;
    QString label = tr("weights on p");
    if (s.negativeShare > 0.0) {
        label += tr(", %1 % < 0").arg(QString::number(100.0 * s.negativeShare, 'f', 1));
    }
    label += tr("\nESS %1 / %2 (%3 %)")
                 .arg(QString::number(s.ess, 'f', 0))
                 .arg(w.size())
                 .arg(QString::number(100.0 * s.essFraction, 'f', 0));
    if (above > 0) {
        label += tr("; %1 above %2 not drawn").arg(above).arg(QString::number(hi, 'g', 3));
    }
    x->setLabel(label);
    y->setLabel(tr("rows"));
    x->setRange(lo - width, hi + width);
    x->ticker()->setTickCount(4);
    y->setRange(0.0, *std::max_element(counts.begin(), counts.end()) * 1.1 + 1.0);
    y->ticker()->setTickCount(4);
    m_one->point1->setCoords(1.0, 0.0);
    m_one->point2->setCoords(1.0, 1.0);
}

void RatioPlot::setQRectangle(const QRectF& rect, int xColumn, int yColumn)
{
    const bool shown = !rect.isNull() && xColumn == m_mapX && yColumn == m_mapY;
    m_qRect->setVisible(shown);
    if (shown) {
        m_qRect->topLeft->setCoords(rect.left(), rect.bottom());
        m_qRect->bottomRight->setCoords(rect.right(), rect.top());
    }
    replot();
}

QRectF RatioPlot::shownQRectangle() const
{
    if (!m_qRect->visible()) {
        return {};
    }
    return QRectF(m_qRect->topLeft->coords(), m_qRect->bottomRight->coords()).normalized();
}

QString RatioPlot::mapScaleLabel() const
{
    return m_mapScale->axis()->label();
}

bool RatioPlot::showsResultPanels() const
{
    return m_mapScale->visible() || m_surfaceScale->visible() || m_one->visible() ||
           m_surfaceRect->axis(QCPAxis::atBottom)->visible() ||
           m_histRect->axis(QCPAxis::atBottom)->visible() || !m_mapScale->axis()->label().isEmpty();
}

std::optional<QPointF> RatioPlot::shownLambdaMark() const
{
    if (m_shownLambda->dataCount() == 0) {
        return std::nullopt;
    }
    const auto it = m_shownLambda->data()->constBegin();
    return QPointF(it->key, it->value);
}

} // namespace sosrep::ui
