// SPDX-License-Identifier: MIT
// The Density tab's 1-D views (issue 24): the density of a single column as kdeplot draws it,
// a detector's score along it, and the closed-form marginal of a plotted column for d > 2.
#include "ui/controller/density_units.h"
#include "ui/controller/marginal_controller.h"
#include "ui/controller/session.h"
#include "ui/density_tab.h"
#include "ui/exporter.h"
#include "ui/main_window.h"
#include "ui/plots/density_curve_plot.h"
#include "ui/plots/density_heatmap.h"
#include "ui/plots/density_page.h"
#include "ui/plots/fd_plot.h"
#include "ui/plots/legend_placement.h"

#include "support/gui_fixtures.h"
#include "support/temp_files.h"

#include <QComboBox>
#include <QImage>
#include <QStandardItemModel>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace sosrep::ui;

namespace {

/// Two Gaussian bumps in one column (seeded), two far rows labelled anomalies.
QByteArray oneColumnCsv(bool labelled)
{
    QByteArray csv = labelled ? "x,y\n" : "x\n";
    std::mt19937 rng(5);
    std::normal_distribution<double> z;
    for (int i = 0; i < 400; ++i) {
        const double v = i < 300 ? z(rng) : 4.0 + 0.5 * z(rng);
        csv += QByteArray::number(v, 'g', 10) + (labelled ? ",0\n" : "\n");
    }
    for (const double far : {9.0, -5.5}) {
        csv += QByteArray::number(far) + (labelled ? ",1\n" : "\n");
    }
    return csv;
}

/// The curve's area in the column's units (the trapezoid rule over the plotted range).
double areaUnder(const QCPGraph* g)
{
    double area = 0.0;
    for (auto it = g->data()->constBegin(); it + 1 != g->data()->constEnd(); ++it) {
        area += 0.5 * (it->value + (it + 1)->value) * ((it + 1)->key - it->key);
    }
    return area;
}

} // namespace

class TstDensityViews : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

private slots:
    // One column: the density, its HDR intervals, a rug of every row with the labelled
    // anomalies marked; the curve is a density in the column's units (area 1).
    void oneColumnShowsItsDensity()
    {
        MainWindow w;
        w.resize(1000, 700);
        w.openFile(writeTempFile(m_dir, QStringLiteral("one.csv"), oneColumnCsv(true)));
        auto* c = w.session();
        QCOMPARE(int(c->data().features().cols()), 1);
        // No second axis to pick: Plot y is off (it read "x", a map of x against x).
        QComboBox* plotY = nullptr;
        for (QComboBox* box : w.findChildren<QComboBox*>()) {
            if (box->currentText().isEmpty() && !box->isEnabled() &&
                box->toolTip().contains(QStringLiteral("One feature column"))) {
                plotY = box;
            }
        }
        QVERIFY(plotY);
        QVERIFY(fitAndWait(w.fits()));
        DensityPage* page = w.views().densityPage;
        auto* plot = qobject_cast<DensityCurvePlot*>(page->currentPlot());
        QVERIFY2(plot, "the Density tab shows the curve");
        QVERIFY(plot->title().contains(QStringLiteral("SOSREP density of x")));
        QCOMPARE(plot->intervalNames(),
                 QStringList({QStringLiteral("50 % HDR"), QStringLiteral("80 % HDR"),
                              QStringLiteral("95 % HDR")}));
        QCOMPARE(plot->rugCount(), 402);
        QCOMPARE(plot->anomalyRugCount(), 2);
        const auto* curve = plot->findChild<QCPGraph*>();
        QVERIFY(curve);
        double area = 0.0;
        for (int i = 0; i < plot->graphCount(); ++i) {
            if (plot->graph(i)->name() == QLatin1String("density")) {
                area = areaUnder(plot->graph(i));
            }
        }
        QVERIFY2(std::abs(area - 1.0) < 0.01, qPrintable(QString::number(area)));
        // The two bumps are two 80 % intervals; the 50 % one is inside the taller bump.
        QCOMPARE(plot->intervals(1).size(), 2);
        const QVector<QCPRange> half = plot->intervals(0);
        QCOMPARE(half.size(), 1);
        QVERIFY(half[0].lower < 0.0 && half[0].upper > 0.0 && half[0].upper < 2.5);
        // The hover read-out: the value and the curve there, and the interval holding it.
        plot->replot();
        const QString readout = plot->readoutAt(
            QPointF(plot->xAxis->coordToPixel(0.0), plot->yAxis->coordToPixel(0.1)));
        QVERIFY2(readout.contains(QStringLiteral("x = ")) &&
                     readout.contains(QStringLiteral("density = 0.2")) &&
                     readout.contains(QStringLiteral("inside the 50 % HDR")),
                 qPrintable(readout));
        // Exported as shown (the tab's plot is the curve).
        const QString png = m_dir.filePath(QStringLiteral("one.png"));
        QCOMPARE(w.exporter()->exportCurrentPlot(png, {800, 500, 96}), QString());
        QCOMPARE(QImage(png).size(), QSize(800, 500));
    }

    // A detector's values are scores: the shaded intervals are the score levels the rows
    // reach, named so; no HDR.
    void aDetectorOnOneColumnIsDrawnAsAScore()
    {
        MainWindow w;
        w.openFile(writeTempFile(m_dir, QStringLiteral("one_iforest.csv"), oneColumnCsv(false)));
        auto* c = w.session();
        c->setEstimator("iforest");
        QVERIFY(fitAndWait(w.fits()));
        auto* plot = qobject_cast<DensityCurvePlot*>(w.views().densityPage->currentPlot());
        QVERIFY(plot);
        QCOMPARE(plot->intervalNames().first(), QStringLiteral("the 50 % most normal rows"));
        // A detector has no length scale: the Fisher-divergence tab says so (it said "no sweep
        // yet (l fixed or not fitted)").
        QVERIFY2(w.views().fd->title().contains(QStringLiteral("iforest has no length scale")),
                 qPrintable(w.views().fd->title()));
        QVERIFY(!plot->intervalNames().join(QLatin1Char(' ')).contains(QStringLiteral("HDR")));
        QVERIFY(plot->valueLabel().contains(QStringLiteral("score")));
        QCOMPARE(plot->anomalyRugCount(), 0);
    }

    // Three columns: the map is a slice and says so; "1-D marginal of a" computes the
    // closed-form marginal on a worker and shows it (area 1); a kernel without a closed form
    // lists the marginals disabled, with the reason.
    void threeColumnsOfferTheMarginalBesideTheSlice()
    {
        QByteArray csv = "a,b,c\n";
        std::mt19937 rng(9);
        std::normal_distribution<double> z;
        for (int i = 0; i < 300; ++i) {
            const double a = (i % 2 ? -2.0 : 2.0) + 0.6 * z(rng);
            csv += QByteArray::number(a) + ',' + QByteArray::number(0.5 * a + z(rng)) + ',' +
                   QByteArray::number(z(rng)) + '\n';
        }
        MainWindow w;
        w.resize(1100, 800);
        w.openFile(writeTempFile(m_dir, QStringLiteral("three.csv"), csv));
        auto* c = w.session();
        QVERIFY(fitAndWait(w.fits()));
        DensityPage* page = w.views().densityPage;
        QComboBox* show = page->chooser();
        QVERIFY(show->isVisibleTo(&w));
        // The map, then every column (the plotted ones first), then the pair plot (d > 2).
        QCOMPARE(show->count(), 5);
        QCOMPARE(show->itemText(3), QStringLiteral("1-D marginal of c"));
        QCOMPARE(show->itemData(4).toInt(), DensityPage::kPairPlot);
        QVERIFY(show->itemText(0).contains(QStringLiteral("slice")));
        QCOMPARE(show->itemText(1), QStringLiteral("1-D marginal of a"));
        QVERIFY(qobject_cast<DensityHeatmap*>(page->currentPlot()));
        QSignalSpy ready(w.controllers().marginals, &MarginalController::ready);
        show->setCurrentIndex(1);
        emit show->activated(1);
        QVERIFY(ready.wait(30000) || w.controllers().marginals->curve(0));
        auto* plot = qobject_cast<DensityCurvePlot*>(page->currentPlot());
        QVERIFY(plot);
        QVERIFY2(plot->title().contains(QStringLiteral("marginal density of a")),
                 qPrintable(plot->title()));
        QVERIFY(plot->title().contains(QStringLiteral("integrated out")));
        for (int i = 0; i < plot->graphCount(); ++i) {
            if (plot->graph(i)->name() == QLatin1String("marginal density")) {
                QVERIFY(std::abs(areaUnder(plot->graph(i)) - 1.0) < 0.01);
            }
        }
        // Two well-separated bumps in a: two 50 % intervals.
        QCOMPARE(plot->intervals(0).size(), 2);
        // Any column, plotted or not: c's marginal is one standard normal bump.
        w.views().densityTab->showMarginal(2);
        QVERIFY(w.controllers().marginals->curve(2) || ready.wait(30000));
        QVERIFY(w.controllers().marginals->curve(2));
        QVERIFY(plot->title().contains(QStringLiteral("marginal density of c")));
        QCOMPARE(plot->intervals(0).size(), 1);
        // Back to the slice.
        show->setCurrentIndex(0);
        emit show->activated(0);
        QVERIFY(qobject_cast<DensityHeatmap*>(page->currentPlot()));

        // The Laplace kernel: no closed form; the choices say why and stay on the slice.
        sosrep::FitSettings s = c->settings();
        s.values.set("kernel", "laplace");
        c->setSettings(s);
        QVERIFY(fitAndWait(w.fits()));
        auto* items = qobject_cast<QStandardItemModel*>(show->model());
        QVERIFY(!items->item(1)->isEnabled());
        QVERIFY(items->item(1)->toolTip().contains(QStringLiteral("laplace")));
        QCOMPARE(show->currentIndex(), 0);
        QVERIFY(qobject_cast<DensityHeatmap*>(page->currentPlot()));
    }

    // Issue 38: the Show box kept the last file's marginal (shuttle computed "1-D marginal of
    // x2" for 21 s before any view), cut its entries short, and showed the last file's entries
    // after a 1-column file.
    void theShowBoxStartsAgainForAnotherFile()
    {
        QByteArray three = "a,b,c\n";
        QByteArray other = "eruptions,waiting,rest\n";
        std::mt19937 rng(4);
        std::normal_distribution<double> z;
        for (int i = 0; i < 200; ++i) {
            three += QByteArray::number(z(rng)) + ',' + QByteArray::number(z(rng)) + ',' +
                     QByteArray::number(z(rng)) + '\n';
            other += QByteArray::number(z(rng)) + ',' + QByteArray::number(50 + z(rng)) + ',' +
                     QByteArray::number(z(rng)) + '\n';
        }
        MainWindow w;
        w.resize(1280, 720);
        w.show();
        w.openFile(writeTempFile(m_dir, QStringLiteral("first.csv"), three));
        QVERIFY(fitAndWait(w.fits()));
        DensityPage* page = w.views().densityPage;
        QComboBox* show = page->chooser();
        show->setCurrentIndex(2);
        emit show->activated(2); // the marginal of b
        QCOMPARE(page->chosenColumn(), 1);
        // A refit of the same columns keeps the choice.
        QVERIFY(fitAndWait(w.fits()));
        QCOMPARE(page->chosenColumn(), 1);
        // Another file: the box empties at once and the new fit shows the map.
        w.openFile(writeTempFile(m_dir, QStringLiteral("second.csv"), other));
        QCOMPARE(show->count(), 0);
        QVERIFY(!show->isVisibleTo(&w));
        QSignalSpy started(w.controllers().marginals, &MarginalController::started);
        QVERIFY(fitAndWait(w.fits()));
        QCOMPARE(page->chosenColumn(), -1);
        QVERIFY(qobject_cast<DensityHeatmap*>(page->currentPlot()));
        QCOMPARE(started.count(), 0); // no marginal computed that nobody asked for
        // Every entry is shown whole.
        QCoreApplication::processEvents();
        const QFontMetrics fm(show->font());
        for (int i = 0; i < show->count(); ++i) {
            QVERIFY2(show->width() > fm.horizontalAdvance(show->itemText(i)),
                     qPrintable(show->itemText(i)));
        }
        // A 1-column file: no box, and nothing of the last file's entries.
        w.openFile(writeTempFile(m_dir, QStringLiteral("one.csv"), oneColumnCsv(false)));
        QCOMPARE(show->count(), 0);
        QVERIFY(!show->isVisibleTo(&w));
        QVERIFY(fitAndWait(w.fits()));
        QCOMPARE(show->count(), 0);
        QVERIFY(qobject_cast<DensityCurvePlot*>(page->currentPlot()));
    }

    // Issue 38: besides the log scale (shuttle's map was all one colour), the density on a
    // linear scale and filled iso-proportion levels, chosen in View > Map colours; a detector's
    // normality score keeps its own colours.
    void theMapIsColouredByLogLinearOrProportion()
    {
        MainWindow w;
        w.resize(1280, 720);
        auto* c = w.session();
        c->generateToy(sosrep::ToyKind::TwoMoons, 300, 0);
        QVERIFY(fitAndWait(w.fits()));
        DensityHeatmap* map = w.views().density;
        const sosrep::DensityGrid& g = c->result()->grid;
        QCOMPARE(map->shownScale(), MapScale::Log);
        w.views().densityTab->setMapScale(MapScale::Linear);
        QCOMPARE(map->shownScale(), MapScale::Linear);
        QVERIFY(map->title().contains(QStringLiteral("(linear scale)")));
        QVERIFY(map->colorScale()->axis()->label().startsWith(QStringLiteral("density per")));
        // The colour range runs from 0 to the peak density.
        QCOMPARE(map->dataRange().lower, 0.0);
        QVERIFY(std::abs(map->dataRange().upper - std::exp(g.logDensity.maxCoeff())) < 1e-12);
        w.views().densityTab->setMapScale(MapScale::Proportion);
        QCOMPARE(map->dataRange(), QCPRange(0.0, 1.0));
        // Each cell's value is the share of the grid's mass in less dense cells: the densest
        // cell has every other cell's mass below it, the least dense none.
        Eigen::Index topRow = 0, topCol = 0, lowRow = 0, lowCol = 0;
        g.logDensity.maxCoeff(&topRow, &topCol); // row j = y(j), column i = x(i)
        g.logDensity.minCoeff(&lowRow, &lowCol);
        QCPColorMap* cells = nullptr;
        for (int i = 0; i < map->plottableCount(); ++i) {
            cells = cells ? cells : qobject_cast<QCPColorMap*>(map->plottable(i));
        }
        QVERIFY(cells);
        QVERIFY(cells->data()->cell(int(topCol), int(topRow)) > 0.99);
        QCOMPARE(cells->data()->cell(int(lowCol), int(lowRow)), 0.0);
        QVERIFY(map->colorScale()->axis()->label().contains(QStringLiteral("less dense")));
        // Ten bands of equal width, each share coloured as its decile's middle: the densest
        // decile takes the top colour (regression, issue 50: QCP's own 10 levels made ninths,
        // and the top colour was reached by a share of 1 alone, which no cell has).
        QCPColorGradient bands = map->gradientFor(MapScale::Proportion); // color() is not const
        const QCPRange unit(0.0, 1.0);
        for (int k = 0; k < 10; ++k) {
            const QRgb mid = bands.color((k + 0.5) / 10.0, unit);
            for (double s : {k / 10.0 + 1e-6, (k + 0.25) / 10.0, (k + 1) / 10.0 - 1e-6}) {
                QCOMPARE(bands.color(s, unit), mid);
            }
            if (k > 0) {
                QVERIFY(bands.color((k - 0.5) / 10.0, unit) != mid);
            }
        }
        int top = 0;
        for (int j = 0; j < cells->data()->valueSize(); ++j) {
            for (int i = 0; i < cells->data()->keySize(); ++i) {
                top += bands.color(cells->data()->cell(i, j), unit) == bands.color(0.95, unit);
            }
        }
        QVERIFY2(top > 0, "no cell in the top band");
        // A detector: its score, coloured as it is.
        c->setEstimator("iforest");
        QVERIFY(fitAndWait(w.fits()));
        QCOMPARE(map->shownScale(), MapScale::Log);
        w.views().densityTab->setMapScale(MapScale::Log);
    }

    void theTitlesSayWhatBwAdjustDid()
    {
        // Regression (issue 50): --bw-adjust changed the fitted l without a word in the titles.
        MainWindow w;
        auto* c = w.session();
        c->generateToy(sosrep::ToyKind::TwoMoons, 300, 0);
        QVERIFY(c->setOption("bw_adjust", "0.5"));
        QVERIFY(fitAndWait(w.fits()));
        const sosrep::FitOutcome& f = c->result()->fit;
        QCOMPARE(f.bwAdjust, 0.5);
        QVERIFY(std::abs(f.lengthScale - 0.5 * f.lengthScaleChosen) < 1e-12);
        const QString said =
            QStringLiteral("bw_adjust 0.5 × the chosen %1").arg(f.lengthScaleChosen, 0, 'g', 4);
        QVERIFY2(w.views().density->title().contains(said), qPrintable(w.views().density->title()));
        QVERIFY(c->setOption("bw_adjust", "1"));
        QVERIFY(fitAndWait(w.fits()));
        QVERIFY(!w.views().density->title().contains(QStringLiteral("bw_adjust")));
    }

    // Issue 33: l acts on the scaled coordinates; titles and the status bar say it in the
    // data's units too, per column when the scaling makes it anisotropic.
    void theLengthScaleIsSaidInTheDatasUnits()
    {
        sosrep::Scaler sc;
        sc.kind = sosrep::ScalingKind::MinMax;
        sc.shift = sosrep::Vector::Zero(2);
        sc.scale = (sosrep::Vector(2) << 2.0, 2000.0).finished();
        const QStringList ab{QStringLiteral("minutes"), QStringLiteral("hours")};
        QCOMPARE(lengthScaleText(0.1, sc, ab),
                 QStringLiteral("ℓ = 0.1 in scaled units (minutes: 0.2, hours: 200)"));
        sc.scale << 3.0, 3.0;
        QCOMPARE(lengthScaleText(0.5, sc, ab),
                 QStringLiteral("ℓ = 0.5 in scaled units (1.5 in every column)"));
        QCOMPARE(lengthScaleText(0.5, sosrep::Scaler(), ab), QStringLiteral("ℓ = 0.5"));
        // One column: named, not "in every column" (regression, issue 50).
        sosrep::Scaler one;
        one.kind = sosrep::ScalingKind::MinMax;
        one.shift = sosrep::Vector::Zero(1);
        one.scale = sosrep::Vector::Constant(1, 3.672);
        QCOMPARE(lengthScaleText(0.05, one, {QStringLiteral("x")}),
                 QStringLiteral("ℓ = 0.05 in scaled units (x: 0.1836)"));
        sc.shift = sosrep::Vector::Zero(5);
        sc.scale = (sosrep::Vector(5) << 1.0, 10.0, 100.0, 2.0, 3.0).finished();
        QCOMPARE(lengthScaleText(0.2, sc, {"a", "b", "c", "d", "e"}),
                 QStringLiteral("ℓ = 0.2 in scaled units (0.2 to 20 in the columns' units)"));
    }

    // Issue 33: the 2-D map and the 1-D marginal are densities in the data's own units, so the
    // map integrated over b is the marginal of a, even with columns whose ranges differ by 1e4
    // (before, the map was per unit of the min-max coordinates and 3e4 times too high here).
    void theMapIntegratedOverOneColumnIsTheOthersMarginal_data()
    {
        QTest::addColumn<QString>("estimator");
        QTest::addColumn<QString>("scale");
        QTest::newRow("KDE, min-max") << "kde"
                                      << "minmax";
        QTest::newRow("KDE, z-score") << "kde"
                                      << "zscore";
        QTest::newRow("kernel SoS, min-max") << "sos-mmd"
                                             << "minmax";
    }

    void theMapIntegratedOverOneColumnIsTheOthersMarginal()
    {
        QFETCH(QString, estimator);
        QFETCH(QString, scale);
        QByteArray csv = "a,b\n";
        std::mt19937 rng(21);
        std::normal_distribution<double> z;
        for (int i = 0; i < 300; ++i) {
            const double a = (i % 2 ? -1.5 : 1.5) + 0.5 * z(rng);
            csv += QByteArray::number(a, 'g', 12) + ',' +
                   QByteArray::number(3000.0 * (0.4 * a + 0.5 * z(rng)), 'g', 12) + '\n';
        }
        MainWindow w;
        w.resize(1100, 800);
        w.openFile(writeTempFile(m_dir, QStringLiteral("units.csv"), csv));
        auto* c = w.session();
        sosrep::FitSettings s = sosrep::FitSettings::defaults(estimator.toStdString());
        s.values.set("scale", scale.toStdString());
        s.values.set("length_scale", scale == QLatin1String("zscore") ? "0.3" : "0.06");
        c->setSettings(s);
        QVERIFY(fitAndWait(w.fits()));
        DensityPage* page = w.views().densityPage;
        auto* map = qobject_cast<DensityHeatmap*>(page->currentPlot());
        QVERIFY(map);
        QCPColorMap* colors = nullptr;
        for (int i = 0; i < map->plottableCount(); ++i) {
            colors = colors ? colors : qobject_cast<QCPColorMap*>(map->plottable(i));
        }
        QVERIFY(colors);
        QCPColorMapData* cells = colors->data();
        const QCPRange keys = cells->keyRange();
        const QCPRange values = cells->valueRange();
        // The map's cells are in the scaled coordinates (its ticks show the data's units).
        const sosrep::Scaler& sc = c->data().scaler();
        const double db = sc.scale(1) * values.size() / (cells->valueSize() - 1);
        QVERIFY2(db > 10.0, "b's cells span many of its units");

        QSignalSpy ready(w.controllers().marginals, &MarginalController::ready);
        w.views().densityTab->showMarginal(0);
        QVERIFY(w.controllers().marginals->curve(0) || ready.wait(30000));
        auto* plot = qobject_cast<DensityCurvePlot*>(page->currentPlot());
        QVERIFY(plot);
        const QCPGraph* marginal = nullptr;
        for (int i = 0; i < plot->graphCount(); ++i) {
            if (plot->graph(i)->name() == QLatin1String("marginal density")) {
                marginal = plot->graph(i);
            }
        }
        QVERIFY(marginal);
        // The marginal at a, linearly between its plotted points.
        const auto marginalAt = [&](double a) {
            auto hi = marginal->data()->findBegin(a, false);
            auto lo = hi == marginal->data()->constBegin() ? hi : hi - 1;
            if (hi == marginal->data()->constEnd() || lo == hi) {
                return lo->value;
            }
            const double t = (a - lo->key) / (hi->key - lo->key);
            return lo->value + t * (hi->value - lo->value);
        };
        double peak = 0.0;
        for (auto it = marginal->data()->constBegin(); it != marginal->data()->constEnd(); ++it) {
            peak = std::max(peak, it->value);
        }
        int compared = 0;
        double worst = 0.0;
        for (int i = 0; i < cells->keySize(); ++i) {
            double column = 0.0;
            for (int j = 0; j < cells->valueSize(); ++j) {
                column += std::exp(cells->cell(i, j)) * db;
            }
            const double a =
                sc.shift(0) + sc.scale(0) * (keys.lower + keys.size() * i / (cells->keySize() - 1));
            const double m = marginalAt(a);
            if (m > 0.1 * peak) {
                worst = std::max(worst, std::abs(column / m - 1.0));
                ++compared;
            }
        }
        qInfo("compared %d columns of cells, worst relative gap %.2e", compared, worst);
        QVERIFY(compared > 40);
        QVERIFY2(worst < 0.02, qPrintable(QString::number(worst)));
    }

    // Issue 24 (shuttle): thousands of anomaly crosses covered the rows, and rows only scored
    // were near-invisible grey dots. Many anomalies get small light crosses; scored rows rings.
    void manyAnomaliesDoNotHideTheRows()
    {
        QByteArray csv = "a,b,y\n";
        std::mt19937 rng(2);
        std::normal_distribution<double> z;
        for (int i = 0; i < 1200; ++i) {
            const bool anomaly = i % 3 == 0;
            csv += QByteArray::number(z(rng) * (anomaly ? 3 : 1)) + ',' +
                   QByteArray::number(z(rng)) + (anomaly ? ",1\n" : ",0\n");
        }
        MainWindow w;
        w.openFile(writeTempFile(m_dir, QStringLiteral("many.csv"), csv));
        auto* c = w.session();
        c->setOption("max_fit_rows", std::to_string(500));
        QVERIFY(fitAndWait(w.fits()));
        DensityHeatmap* map = w.views().density;
        QCPGraph* anomalies = nullptr;
        QCPGraph* scoredOnly = nullptr;
        for (int i = 0; i < map->graphCount(); ++i) {
            if (map->graph(i)->name().startsWith(QStringLiteral("label = 1"))) {
                anomalies = map->graph(i);
            } else if (map->graph(i)->name().contains(QStringLiteral("not fitted on"))) {
                scoredOnly = map->graph(i);
            }
        }
        QVERIFY(anomalies && scoredOnly);
        QCOMPARE(anomalies->dataCount(), 400);
        QVERIFY(anomalies->scatterStyle().size() < 5);
        QVERIFY(anomalies->scatterStyle().pen().color().alpha() < 255);
        QVERIFY(scoredOnly->dataCount() > 0);
        QVERIFY(scoredOnly->scatterStyle().size() >= 3.5);
        QVERIFY(scoredOnly->scatterStyle().pen().color().alpha() >= 150);
    }

    // Esc stops a marginal's computation (polled between blocks of 256 centres: 2000 rows
    // make 8 blocks, so the flag set right after the request is seen before the end); asked
    // again, it computes.
    void escCancelsAMarginal()
    {
        QByteArray csv = "a,b,c\n";
        std::mt19937 rng(4);
        std::normal_distribution<double> z;
        for (int i = 0; i < 2000; ++i) {
            csv += QByteArray::number(z(rng)) + ',' + QByteArray::number(z(rng)) + ',' +
                   QByteArray::number(z(rng)) + '\n';
        }
        MainWindow w;
        w.openFile(writeTempFile(m_dir, QStringLiteral("big.csv"), csv));
        auto* c = w.session();
        sosrep::FitSettings s = c->settings();
        s.values.set("length_scale", "0.3"); // no sweep: the test is about the marginal
        c->setSettings(s);
        QVERIFY(fitAndWait(w.fits()));
        QSignalSpy cancelled(w.controllers().marginals, &MarginalController::cancelled);
        QSignalSpy ready(w.controllers().marginals, &MarginalController::ready);
        w.controllers().marginals->request(1);
        c->cancel();
        QVERIFY(cancelled.wait(30000));
        QCOMPARE(cancelled.first().first().toInt(), 1);
        QVERIFY(!w.controllers().marginals->curve(1));
        QCOMPARE(ready.count(), 0);
        w.controllers().marginals->request(1);
        QVERIFY(ready.wait(30000));
        QVERIFY(w.controllers().marginals->curve(1));
    }

    // Issue 50: after a file of other units, a >= 10 000-row file (the seeded-subsample path)
    // showed its map under the previous file's axis numbers for 40 s, with no hover and no Show
    // row. When its fit is shown, every number on the map belongs to it.
    void aLargeFileAfterAnotherShowsItsOwnAxesAtOnce()
    {
        MainWindow w;
        w.resize(1280, 720);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.openFile(writeTempFile(m_dir, QStringLiteral("small.csv"), clusterCsv(300))));
        QVERIFY(fitAndWait(w.fits()));
        QVERIFY(w.openFile(
            writeTempFile(m_dir, QStringLiteral("large.csv"), clusterCsv(12000, 500.0))));
        QVERIFY(fitAndWait(w.fits()));
        DensityHeatmap* map = w.views().density;
        map->replot();
        const QVector<QString> labels = map->xAxis->tickVectorLabels();
        QVERIFY(!labels.isEmpty());
        for (const QString& l : labels) {
            QVERIFY2(l.toDouble() > 490.0 && l.toDouble() < 510.0, qPrintable(labels.join(' ')));
        }
        QVERIFY(map->title().contains(QStringLiteral("fitted on 10000 of 12000 rows")));
        QVERIFY(!map->readoutAt(map->axisRect()->rect().center()).isEmpty());
        QVERIFY(w.views().densityPage->chooser()->isVisible());
    }

    // Issue 50: after a resize to 1280x720 the map's legend stayed in the corner chosen for the
    // larger map, over the anomalies. Every size gets the corner that covers the fewest rows.
    void theLegendFindsItsCornerAgainAfterAResize()
    {
        MainWindow w;
        w.resize(1600, 1000);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.session()->generateToy(sosrep::ToyKind::TwoMoons, 500, 0);
        QVERIFY(fitAndWait(w.fits()));
        DensityHeatmap* map = w.views().density;
        const auto corner = [map] { return map->axisRect()->insetLayout()->insetAlignment(0); };
        for (const QSize size : {QSize(1280, 720), QSize(1600, 1000), QSize(1280, 720)}) {
            w.resize(size);
            QApplication::processEvents();
            map->replot();
            const Qt::Alignment after = corner();
            placeInsetLegends(map); // where it would go, placed afresh at this size
            QCOMPARE(corner(), after);
        }
    }
};

QTEST_MAIN(TstDensityViews)
#include "tst_density_views.moc"
