// SPDX-License-Identifier: MIT
// SVG exports (issue 24): what the painter clips stays clipped, and each label is one <text>
// whose length is Qt's layout width.
#include "ui/controller/session.h"
#include "ui/exporter.h"
#include "ui/main_window.h"

#include "support/gui_fixtures.h"
#include "ui/plots/density_heatmap.h"
#include "ui/plots/density_page.h"
#include "ui/plots/plot_export.h"

#include <qcustomplot.h>

#include <QFile>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <QtTest>

#include <map>

using namespace sosrep::ui;

namespace {

/// What an SVG holds, as a viewer sees it: each clip region's bounding box, each image and
/// path with the clip it is drawn under, each <text> with its whole string.
struct SvgContent
{
    struct Element
    {
        QString clip; // id of the enclosing clip group, empty if none
        QRectF box;   // images: x/y/width/height; paths: bounds of their points
    };
    std::map<QString, QRectF> clips;
    std::vector<Element> images;
    std::vector<Element> paths;
    QStringList texts;
    QList<double> textLengths;
};

QRectF boundsOfPathData(const QString& d)
{
    static const QRegularExpression pair(QStringLiteral("(-?[0-9.e+-]+),(-?[0-9.e+-]+)"));
    double x0 = 1e300, y0 = 1e300, x1 = -1e300, y1 = -1e300;
    for (const QRegularExpressionMatch& m : pair.globalMatch(d)) {
        const double x = m.captured(1).toDouble();
        const double y = m.captured(2).toDouble();
        x0 = std::min(x0, x);
        y0 = std::min(y0, y);
        x1 = std::max(x1, x);
        y1 = std::max(y1, y);
    }
    return x0 <= x1 ? QRectF(QPointF(x0, y0), QPointF(x1, y1)) : QRectF();
}

QTransform transformOf(const QString& attribute)
{
    static const QRegularExpression m(QStringLiteral("matrix\\(([^)]*)\\)"));
    const QRegularExpressionMatch match = m.match(attribute);
    if (!match.hasMatch()) {
        return {};
    }
    const QStringList v = match.captured(1).split(QLatin1Char(' '), Qt::SkipEmptyParts);
    if (v.size() != 6) {
        return {};
    }
    return QTransform(v[0].toDouble(), v[1].toDouble(), v[2].toDouble(), v[3].toDouble(),
                      v[4].toDouble(), v[5].toDouble());
}

SvgContent readSvg(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        return {};
    }
    SvgContent out;
    QXmlStreamReader xml(&f);
    QStringList groupClips; // one entry per open <g>
    QString inClipPath;
    QString text;
    int textDepth = 0;
    while (!xml.atEnd()) {
        xml.readNext();
        const auto a = xml.attributes();
        const QString name = xml.name().toString();
        if (xml.isStartElement()) {
            const QString clip = groupClips.isEmpty() ? QString() : groupClips.last();
            if (name == QLatin1String("clipPath")) {
                inClipPath = a.value(QLatin1String("id")).toString();
            } else if (name == QLatin1String("g")) {
                QString id = a.value(QLatin1String("clip-path")).toString();
                id = id.mid(5, id.size() - 6); // url(#id)
                groupClips << (id.isEmpty() ? clip : id);
            } else if (name == QLatin1String("path") && !inClipPath.isEmpty()) {
                out.clips[inClipPath] = boundsOfPathData(a.value(QLatin1String("d")).toString());
            } else if (name == QLatin1String("path")) {
                out.paths.push_back(
                    {clip, boundsOfPathData(a.value(QLatin1String("d")).toString())});
            } else if (name == QLatin1String("image")) {
                const QRectF r(a.value(QLatin1String("x")).toDouble(),
                               a.value(QLatin1String("y")).toDouble(),
                               a.value(QLatin1String("width")).toDouble(),
                               a.value(QLatin1String("height")).toDouble());
                out.images.push_back(
                    {clip, transformOf(a.value(QLatin1String("transform")).toString()).mapRect(r)});
            } else if (name == QLatin1String("text")) {
                text.clear();
                textDepth = 1;
                out.textLengths << a.value(QLatin1String("textLength")).toDouble();
            }
        } else if (xml.isCharacters() && textDepth > 0) {
            text += xml.text();
        } else if (xml.isEndElement()) {
            if (name == QLatin1String("clipPath")) {
                inClipPath.clear();
            } else if (name == QLatin1String("g") && !groupClips.isEmpty()) {
                groupClips.removeLast();
            } else if (name == QLatin1String("text")) {
                out.texts << text;
                textDepth = 0;
            }
        }
    }
    return xml.hasError() ? SvgContent{} : out;
}

bool near(const QRectF& a, const QRectF& b, double tol)
{
    return std::abs(a.left() - b.left()) <= tol && std::abs(a.top() - b.top()) <= tol &&
           std::abs(a.right() - b.right()) <= tol && std::abs(a.bottom() - b.bottom()) <= tol;
}

} // namespace

class TstSvgExport : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

private slots:
    // A zoomed plot: the colour map's image and the scatter points reach far beyond the axes;
    // in the SVG both are drawn under a clip that is the axis rectangle (QSvgGenerator wrote
    // no clip at all: the image covered the canvas).
    void aZoomedPlotIsClippedToItsAxes()
    {
        QCustomPlot plot;
        plot.resize(500, 400);
        auto* map = new QCPColorMap(plot.xAxis, plot.yAxis);
        map->data()->setSize(20, 20);
        map->data()->setRange(QCPRange(-10, 10), QCPRange(-10, 10));
        for (int i = 0; i < 20; ++i) {
            for (int j = 0; j < 20; ++j) {
                map->data()->setCell(i, j, i + j);
            }
        }
        map->rescaleDataRange();
        auto* points = plot.addGraph();
        points->setLineStyle(QCPGraph::lsNone);
        points->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 6));
        points->setData({-9, -1, 0, 1, 9}, {-9, 1, 0, -1, 9});
        plot.xAxis->setRange(-2, 2); // zoomed: the map spans five times the axes
        plot.yAxis->setRange(-2, 2);
        plot.replot();
        const QString path = m_dir.filePath(QStringLiteral("zoom.svg"));
        QCOMPARE(exportPlot(&plot, path, {500, 400, 96}), QString());
        const SvgContent svg = readSvg(path);
        const QRectF axes = plot.axisRect()->rect();
        QCOMPARE(int(svg.images.size()), 1);
        const auto& image = svg.images.front();
        // QCustomPlot paints a vectorized map through a buffer the size of the clip; either
        // way nothing of it may land outside the axes.
        const QRectF visible =
            image.clip.isEmpty() ? image.box : image.box.intersected(svg.clips.at(image.clip));
        QVERIFY2(axes.adjusted(-1.5, -1.5, 1.5, 1.5).contains(visible), "the map leaves its axes");
        QVERIFY(!image.clip.isEmpty());
        // Every path that reaches outside the canvas (the far scatter points) is clipped to
        // the axes.
        int outside = 0;
        for (const auto& p : svg.paths) {
            if (!QRectF(0, 0, 500, 400).contains(p.box)) {
                ++outside;
                QVERIFY2(!p.clip.isEmpty(), "a path outside the axes is unclipped");
                QVERIFY(near(svg.clips.at(p.clip), axes, 1.5) ||
                        svg.clips.at(p.clip).contains(axes));
            }
        }
        QVERIFY2(outside >= 2, "the far points are in the file, to be clipped");
    }

    // Each label is one <text> with its whole string (Qt hands a label over in runs per
    // script, "λ = 1e-07" as Greek then Latin), pinned to Qt's width so labels cannot collide.
    void labelsAreWholeStringsOfQtsWidth()
    {
        QCustomPlot plot;
        plot.resize(500, 300);
        plot.plotLayout()->insertRow(0);
        const QString title = QStringLiteral("t = 0.249 and λ = 1e-07, ℓ = 0.052 (Σ α²)");
        const QFont font(plot.font().family(), 11, QFont::Bold);
        plot.plotLayout()->addElement(0, 0, new QCPTextElement(&plot, title, font));
        plot.xAxis->setLabel(QStringLiteral("length scale ℓ (log scale)"));
        plot.replot();
        const QString path = m_dir.filePath(QStringLiteral("text.svg"));
        QCOMPARE(exportPlot(&plot, path, {500, 300, 96}), QString());
        const SvgContent svg = readSvg(path);
        const int at = svg.texts.indexOf(title);
        QVERIFY2(at >= 0, qPrintable(svg.texts.join(QLatin1String(" | "))));
        QVERIFY(svg.texts.contains(QStringLiteral("length scale ℓ (log scale)")));
        const double qtWidth = QFontMetricsF(font).horizontalAdvance(title);
        QVERIFY2(std::abs(svg.textLengths.at(at) - qtWidth) < 0.05 * qtWidth,
                 qPrintable(QString::number(svg.textLengths.at(at))));
    }

    // The app's zoomed density view exports as it shows: heatmap and rows under the axes' clip.
    void theZoomedDensityViewExportsClipped()
    {
        MainWindow w;
        w.resize(1100, 800);
        auto* c = w.session();
        c->generateToy(sosrep::ToyKind::GaussianMixture, 300, 3);
        QVERIFY(fitAndWait(w.fits()));
        auto* map = w.views().density;
        QVERIFY(map);
        w.views().tabs->setCurrentWidget(w.views().densityPage);
        const QCPRange x = map->xAxis->range();
        const QCPRange y = map->yAxis->range();
        map->xAxis->setRange(x.center(), x.center() + x.size() / 5);
        map->yAxis->setRange(y.center(), y.center() + y.size() / 5);
        map->replot();
        const QString path = m_dir.filePath(QStringLiteral("density.svg"));
        QCOMPARE(w.exporter()->exportCurrentPlot(path, {900, 700, 96}), QString());
        const SvgContent svg = readSvg(path);
        const QRectF axes = map->axisRect()->rect();
        QVERIFY(!svg.images.empty());
        int clippedToAxes = 0;
        for (const auto& image : svg.images) {
            const QRectF visible =
                image.clip.isEmpty() ? image.box : image.box.intersected(svg.clips.at(image.clip));
            QVERIFY2(!visible.intersects(axes.adjusted(2, 2, -2, -2)) ||
                         axes.adjusted(-1.5, -1.5, 1.5, 1.5).contains(visible),
                     "an image crosses the axes' edge");
            clippedToAxes += !image.clip.isEmpty() && near(svg.clips.at(image.clip), axes, 1.5);
        }
        QVERIFY(clippedToAxes >= 1);
        // The rows outside the zoom are in the file, under the axes' clip.
        int outside = 0;
        for (const auto& p : svg.paths) {
            if (!p.box.isEmpty() && !axes.adjusted(-8, -8, 8, 8).contains(p.box) &&
                !p.clip.isEmpty() && near(svg.clips.at(p.clip), axes, 1.5)) {
                ++outside;
            }
        }
        QVERIFY(outside >= 1);
    }
};

QTEST_MAIN(TstSvgExport)
#include "tst_svg_export.moc"
