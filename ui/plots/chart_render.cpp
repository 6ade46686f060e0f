// SPDX-License-Identifier: MIT
// Drawing a core chart into PNG, PDF or SVG bytes.
#include "ui/plots/chart_render.h"

#include "ui/plots/plot_export.h"

#include <qcustomplot.h>

#include <QFile>
#include <QTemporaryDir>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace sosrep::ui {
namespace {

/// Okabe-Ito first (colour-blind safe), then further distinct hues for up to 16 series.
QColor paletteColour(int i)
{
    static const QColor colours[] = {
        {0, 114, 178},  {213, 94, 0},   {0, 158, 115},   {204, 121, 167},
        {86, 180, 233}, {230, 159, 0},  {0, 0, 0},       {240, 228, 66},
        {128, 0, 128},  {139, 69, 19},  {112, 128, 144}, {34, 139, 34},
        {220, 20, 60},  {70, 130, 180}, {184, 134, 11},  {0, 128, 128}};
    constexpr int n = sizeof(colours) / sizeof(colours[0]);
    return colours[((i % n) + n) % n];
}

QColor seriesColour(const ChartSeries& s, int position)
{
    return paletteColour(s.colour >= 0 ? s.colour : position);
}

double quantile(const std::vector<double>& sorted, double p)
{
    const double h = (sorted.size() - 1) * p;
    const size_t lo = static_cast<size_t>(std::floor(h));
    const size_t hi = std::min(lo + 1, sorted.size() - 1);
    return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
}

QSharedPointer<QCPAxisTickerText> categoryTicker(const std::vector<std::string>& names)
{
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    for (size_t i = 0; i < names.size(); ++i) {
        ticker->addTick(double(i + 1), QString::fromStdString(names[i]));
    }
    return ticker;
}

void drawLines(QCustomPlot& plot, QCPAxisRect* rect, QCPLegend* legend, const ChartPanel& p)
{
    for (size_t i = 0; i < p.series.size(); ++i) {
        const ChartSeries& s = p.series[i];
        QCPGraph* g = plot.addGraph(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
        g->setData(QVector<double>(s.x.begin(), s.x.end()), QVector<double>(s.y.begin(), s.y.end()),
                   true);
        QPen pen(seriesColour(s, int(i)), 1.6);
        pen.setStyle(s.dashed ? Qt::DashLine : Qt::SolidLine);
        g->setPen(pen);
        g->setName(QString::fromStdString(s.name));
        g->removeFromLegend();
        if (!s.name.empty()) {
            g->addToLegend(legend);
        }
    }
    if (p.logX) {
        rect->axis(QCPAxis::atBottom)->setScaleType(QCPAxis::stLogarithmic);
        rect->axis(QCPAxis::atBottom)->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
    }
    rect->axis(QCPAxis::atBottom)->rescale();
    rect->axis(QCPAxis::atLeft)->rescale();
}

void drawBoxes(QCPAxisRect* rect, QCPLegend* legend, const ChartPanel& p)
{
    QCPAxis* x = rect->axis(QCPAxis::atBottom);
    QCPAxis* y = rect->axis(QCPAxis::atLeft);
    std::vector<std::string> names;
    auto* means = new QCPGraph(x, y);
    means->setLineStyle(QCPGraph::lsNone);
    means->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDiamond, Qt::black, Qt::white, 7));
    means->setName(QStringLiteral("mean"));
    means->removeFromLegend();
    means->addToLegend(legend);
    for (size_t i = 0; i < p.series.size(); ++i) {
        const ChartSeries& s = p.series[i];
        names.push_back(s.name);
        if (s.y.empty()) {
            continue;
        }
        const BoxStats b = boxStats(s.y);
        auto* box = new QCPStatisticalBox(x, y);
        box->addData(double(i + 1), b.lowerWhisker, b.q1, b.median, b.q3, b.upperWhisker,
                     QVector<double>(b.outliers.begin(), b.outliers.end()));
        QColor fill = seriesColour(s, int(i));
        box->setPen(QPen(fill.darker(150), 1.2));
        fill.setAlpha(110);
        box->setBrush(fill);
        box->setWidth(0.6);
        box->setOutlierStyle(
            QCPScatterStyle(QCPScatterStyle::ssCircle, fill.darker(150), Qt::white, 5));
        box->removeFromLegend();
        means->addData(double(i + 1), b.mean);
    }
    x->setTicker(categoryTicker(names));
    x->setTickLabelRotation(names.size() > 6 ? 30 : 0);
    x->setRange(0.4, names.size() + 0.6);
    y->rescale();
    x->setRange(0.4, names.size() + 0.6);
}

void drawBars(QCustomPlot& plot, QCPAxisRect* rect, QCPLegend* legend, const ChartPanel& p)
{
    QCPAxis* x = rect->axis(QCPAxis::atBottom);
    QCPAxis* y = rect->axis(QCPAxis::atLeft);
    auto* group = new QCPBarsGroup(&plot);
    const double width = 0.8 / std::max<size_t>(1, p.series.size());
    for (size_t i = 0; i < p.series.size(); ++i) {
        const ChartSeries& s = p.series[i];
        auto* bars = new QCPBars(x, y);
        QVector<double> keys;
        QVector<double> values;
        for (size_t c = 0; c < s.y.size() && c < p.categories.size(); ++c) {
            keys.push_back(double(c + 1));
            values.push_back(s.y[c]);
        }
        bars->setData(keys, values, true);
        bars->setWidth(width);
        bars->setBarsGroup(group);
        const QColor c = seriesColour(s, int(i));
        bars->setPen(QPen(c.darker(130)));
        bars->setBrush(c);
        bars->setName(QString::fromStdString(s.name));
        bars->removeFromLegend();
        bars->addToLegend(legend);
    }
    x->setTicker(categoryTicker(p.categories));
    x->setTickLabelRotation(p.categories.size() > 6 ? 30 : 0);
    y->rescale();
    x->setRange(0.4, p.categories.size() + 0.6);
}

/// Adds a little room around the data so that nothing sits on the frame.
void pad(QCPAxis* axis, bool fixed, double lo, double hi)
{
    if (fixed) {
        axis->setRange(lo - 0.02 * (hi - lo), hi + 0.02 * (hi - lo));
        return;
    }
    const QCPRange r = axis->range();
    const double margin = r.size() > 0 ? 0.05 * r.size() : 0.5;
    axis->setRange(r.lower - margin, r.upper + margin);
}

} // namespace

BoxStats boxStats(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    BoxStats b;
    b.q1 = quantile(v, 0.25);
    b.median = quantile(v, 0.5);
    b.q3 = quantile(v, 0.75);
    b.mean = std::accumulate(v.begin(), v.end(), 0.0) / v.size();
    const double iqr = b.q3 - b.q1;
    const double lo = b.q1 - 1.5 * iqr;
    const double hi = b.q3 + 1.5 * iqr;
    b.lowerWhisker = b.q1;
    b.upperWhisker = b.q3;
    for (double x : v) {
        if (x < lo || x > hi) {
            b.outliers.push_back(x);
        } else {
            b.lowerWhisker = std::min(b.lowerWhisker, x);
            b.upperWhisker = std::max(b.upperWhisker, x);
        }
    }
    return b;
}

namespace {

/// One panel of a chart in its cell: title, axes, data and legend (beside the data).
void addPanel(QCustomPlot& plot, QCPLayoutGrid* cell, const ChartPanel& p)
{
    const QFont base = plot.font();
    cell->addElement(0, 0,
                     new QCPTextElement(&plot, QString::fromStdString(p.title),
                                        QFont(base.family(), 9, QFont::Bold)));
    auto* rect = new QCPAxisRect(&plot);
    cell->addElement(1, 0, rect);
    // The legend beside the data, never over it, at the top of its column.
    auto* legendColumn = new QCPLayoutGrid;
    cell->addElement(1, 1, legendColumn);
    auto* legend = new QCPLegend;
    legendColumn->addElement(0, 0, legend);
    legendColumn->addElement(1, 0, new QCPLayoutElement(&plot));
    legendColumn->setRowStretchFactor(0, 0.001);
    legendColumn->setRowStretchFactor(1, 1);
    legend->setLayer(QStringLiteral("legend"));
    legend->setFont(QFont(base.family(), 8));
    cell->setColumnStretchFactor(0, 1);
    cell->setColumnStretchFactor(1, 0.001);
    switch (p.kind) {
    case ChartPanel::Kind::Lines:
        drawLines(plot, rect, legend, p);
        break;
    case ChartPanel::Kind::Boxes:
        drawBoxes(rect, legend, p);
        break;
    case ChartPanel::Kind::Bars:
        drawBars(plot, rect, legend, p);
        break;
    }
    if (legend->itemCount() == 0) {
        cell->remove(legendColumn);
        cell->simplify();
    }
    rect->axis(QCPAxis::atBottom)->setLabel(QString::fromStdString(p.xLabel));
    QString yLabel = QString::fromStdString(p.yLabel);
    if (p.kind == ChartPanel::Kind::Boxes && p.lowerIsBetter) {
        yLabel += QStringLiteral(" (lower is better)");
    }
    rect->axis(QCPAxis::atLeft)->setLabel(yLabel);
    rect->axis(QCPAxis::atLeft)->setRangeReversed(p.lowerIsBetter); // the best on top
    pad(rect->axis(QCPAxis::atLeft), p.yMin < p.yMax, p.yMin, p.yMax);
    if (p.kind == ChartPanel::Kind::Lines && !p.logX) {
        pad(rect->axis(QCPAxis::atBottom), false, 0, 0);
    }
}

} // namespace

QByteArray renderChart(const Chart& chart, const QString& format)
{
    const QString ext = format.toLower();
    if (ext != QLatin1String("png") && ext != QLatin1String("pdf") && ext != QLatin1String("svg")) {
        throw std::runtime_error("unknown plot format '" + format.toStdString() +
                                 "' (use .png, .pdf or .svg)");
    }
    QCustomPlot plot;
    plot.resize(chart.width, chart.height);
    plot.plotLayout()->clear();
    const QFont base = plot.font();
    plot.plotLayout()->addElement(0, 0,
                                  new QCPTextElement(&plot, QString::fromStdString(chart.title),
                                                     QFont(base.family(), 11, QFont::Bold)));
    auto* grid = new QCPLayoutGrid;
    plot.plotLayout()->addElement(1, 0, grid);
    const int columns = std::max(1, chart.columns);
    for (size_t k = 0; k < chart.panels.size(); ++k) {
        auto* cell = new QCPLayoutGrid;
        grid->addElement(int(k) / columns, int(k) % columns, cell);
        addPanel(plot, cell, chart.panels[k]);
    }
    // QCustomPlot saves PDFs only to a path: write every format through exportPlot into a
    // private directory and hand back the bytes (the caller stages them atomically).
    QTemporaryDir dir;
    if (!dir.isValid()) {
        throw std::runtime_error("cannot create a temporary directory for the plot");
    }
    const QString path = dir.filePath(QStringLiteral("chart.") + ext);
    ExportOptions options;
    options.width = chart.width;
    options.height = chart.height;
    const QString error = exportPlot(&plot, path, options);
    if (!error.isEmpty()) {
        throw std::runtime_error(error.toStdString());
    }
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        throw std::runtime_error("cannot read back the rendered plot");
    }
    return file.readAll();
}

} // namespace sosrep::ui
