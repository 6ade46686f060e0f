// SPDX-License-Identifier: MIT
// The pair plot (issue 38, seaborn's pairplot): every pair's map below the diagonal, each
// column's marginal on it, drawn panel by panel as a worker computes them; Esc stops it.
#include "core/grid/density_grid.h"
#include "core/pipeline/fit_route.h"
#include "ui/controller/pair_plot_controller.h"
#include "ui/controller/session.h"
#include "ui/density_tab.h"
#include "ui/main_window.h"
#include "ui/plots/density_page.h"
#include "ui/plots/pair_plot.h"
#include "ui/plots/raw_units_ticker.h"

#include "support/gui_fixtures.h"
#include "support/temp_files.h"

#include <QComboBox>
#include <QTemporaryDir>
#include <QtTest>

#include <atomic>
#include <cmath>
#include <random>

using namespace sosrep::ui;

namespace {

QByteArray columnsCsv(int d, int n)
{
    QByteArray csv;
    for (int j = 0; j < d; ++j) {
        csv += (j ? "," : "") + QByteArray("c") + QByteArray::number(j);
    }
    csv += '\n';
    std::mt19937 rng(6);
    std::normal_distribution<double> z;
    for (int i = 0; i < n; ++i) {
        const double shared = z(rng);
        for (int j = 0; j < d; ++j) {
            csv += (j ? "," : "") + QByteArray::number(shared * (j % 2 ? 1.0 : -0.5) + z(rng));
        }
        csv += '\n';
    }
    return csv;
}

/// Pixels by which any two neighbouring tick labels of `a` overlap (0 when none do).
int tickLabelOverlap(QCPAxis* a)
{
    const QVector<double> ticks = a->tickVector();
    const QVector<QString> labels = a->tickVectorLabels();
    const QFontMetrics fm(a->tickLabelFont());
    const bool horizontal = a->orientation() == Qt::Horizontal;
    int worst = 0;
    for (int i = 1; i < ticks.size(); ++i) {
        const double gap = std::abs(a->coordToPixel(ticks[i]) - a->coordToPixel(ticks[i - 1]));
        const double need =
            horizontal
                ? 0.5 * (fm.horizontalAdvance(labels[i]) + fm.horizontalAdvance(labels[i - 1])) +
                      2.0
                : fm.height();
        worst = std::max(worst, int(std::ceil(need - gap)));
    }
    return worst;
}

/// "label at pixel" of each tick, for a failure's message.
QString tickText(QCPAxis* a)
{
    QStringList parts;
    for (int i = 0; i < a->tickVector().size(); ++i) {
        parts << QString("%1 at %2")
                     .arg(a->tickVectorLabels()[i])
                     .arg(a->coordToPixel(a->tickVector()[i]), 0, 'f', 0);
    }
    return parts.join(", ");
}

} // namespace

class TstPairPlot : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

private slots:
    void thePanelsArriveOneByOneAndFillTheGrid()
    {
        MainWindow w;
        w.resize(1280, 720);
        w.openFile(writeTempFile(m_dir, QStringLiteral("four.csv"), columnsCsv(4, 300)));
        QVERIFY(fitAndWait(w.fits()));
        QComboBox* show = w.views().densityPage->chooser();
        const int entry = show->findData(DensityPage::kPairPlot);
        QVERIFY(entry >= 0);
        QSignalSpy panels(w.controllers().pairs, &PairPlotController::panelReady);
        QSignalSpy done(w.controllers().pairs, &PairPlotController::finished);
        show->setCurrentIndex(entry);
        emit show->activated(entry);
        QVERIFY(done.wait(60000));
        PairPlot* plot = w.views().densityPage->pairs();
        QCOMPARE(w.views().densityPage->currentPlot(), static_cast<QWidget*>(plot));
        QCOMPARE(plot->panelCount(), 10); // 4 diagonals + 6 pairs
        QCOMPARE(panels.count(), 10);     // each handed over as it was done
        QCOMPARE(plot->panelsDrawn(), 10);
        // The pairs below the diagonal first, row by row, then the diagonals.
        const auto& got = w.controllers().pairs->panels();
        QCOMPARE(got[0].row, 1);
        QCOMPARE(got[0].column, 0);
        QCOMPARE(got[5].row, 3);
        QCOMPARE(got[5].column, 2);
        for (int k = 0; k < 4; ++k) {
            QCOMPARE(got[size_t(6 + k)].row, k);
            QCOMPARE(got[size_t(6 + k)].column, k);
        }
        // A pair's map is the model on that pair's grid (columns c, r): the slice of the
        // other columns at their medians.
        QCOMPARE(got[0].grid.spec.xColumn, 0);
        QCOMPARE(got[0].grid.spec.yColumn, 1);
        QVERIFY(plot->title().contains(QStringLiteral("closed-form marginal")));
        // Shown again: nothing computed twice.
        QSignalSpy again(w.controllers().pairs, &PairPlotController::panelReady);
        w.views().densityTab->showPairPlotView();
        QCOMPARE(again.count(), 0);
        QCOMPARE(plot->panelsDrawn(), 10);
    }

    void everyPanelIsTheSameSizeWithReadableTicksAndAColourBar()
    {
        // Issue 50 (minor): on shuttle at 1600 px the first column's panels were half as wide
        // as the rest and the bottom row's shorter (their labels' room came out of them), x1's
        // three tick labels ran into each other, and no colour bar said what the colours are.
        MainWindow w;
        w.resize(1280, 720);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QByteArray csv = "c0,c1,c2,c3,c4,c5,c6,c7,c8\n";
        std::mt19937 rng(9);
        std::normal_distribution<double> z;
        for (int i = 0; i < 400; ++i) {
            for (int j = 0; j < 9; ++j) {
                // Three-digit values in the even columns, as shuttle's x1 (37 to 126).
                const double v = j % 2 ? z(rng) : 80.0 + 15.0 * z(rng);
                csv += (j ? "," : "") + QByteArray::number(v, 'g', 8);
            }
            csv += '\n';
        }
        w.openFile(writeTempFile(m_dir, QStringLiteral("nine.csv"), csv));
        QVERIFY(fitAndWait(w.fits()));
        QSignalSpy done(w.controllers().pairs, &PairPlotController::finished);
        w.views().densityTab->showPairPlotView();
        QVERIFY(done.wait(120000));
        PairPlot* plot = w.views().densityPage->pairs();
        plot->replot(QCustomPlot::rpImmediateRefresh);
        QList<QCPAxisRect*> bottom, first;
        for (QCPAxisRect* r : plot->axisRects()) {
            if (r->axis(QCPAxis::atBottom)->label().size() > 0) {
                bottom.append(r);
            }
            if (r->axis(QCPAxis::atLeft)->label().size() > 0) {
                first.append(r);
            }
        }
        QCOMPARE(bottom.size(), 9);
        QCOMPARE(first.size(), 8); // the top diagonal has no y label
        const int width = bottom.last()->width();
        const int height = first.last()->height();
        QVERIFY(width > 20 && height > 20);
        for (QCPAxisRect* r : bottom) {
            QVERIFY2(std::abs(r->width() - width) <= 2,
                     qPrintable(QString("%1: %2 px wide, the last %3")
                                    .arg(r->axis(QCPAxis::atBottom)->label())
                                    .arg(r->width())
                                    .arg(width)));
            QVERIFY2(
                std::abs(r->height() - height) <= 2,
                qPrintable(
                    QString("bottom row %1 px high, the others %2").arg(r->height()).arg(height)));
            QVERIFY2(tickLabelOverlap(r->axis(QCPAxis::atBottom)) <= 0,
                     qPrintable(r->axis(QCPAxis::atBottom)->label() +
                                " tick labels overlap: " + tickText(r->axis(QCPAxis::atBottom))));
        }
        for (QCPAxisRect* r : first) {
            QVERIFY2(std::abs(r->height() - height) <= 2,
                     qPrintable(QString("%1: %2 px high, the last %3")
                                    .arg(r->axis(QCPAxis::atLeft)->label())
                                    .arg(r->height())
                                    .arg(height)));
            QVERIFY(std::abs(r->width() - width) <= 2);
            QVERIFY2(tickLabelOverlap(r->axis(QCPAxis::atLeft)) <= 0,
                     qPrintable(r->axis(QCPAxis::atLeft)->label() +
                                " tick labels overlap: " + tickText(r->axis(QCPAxis::atLeft))));
        }
        // The colour bar: the band below each map's own peak, which each map spans.
        QCPColorScale* bar = plot->colourScale();
        QVERIFY(bar && bar->visible() && bar->rect().height() > 100);
        QCOMPARE(bar->dataRange().lower, -PairPlot::kBandNats);
        QCOMPARE(bar->dataRange().upper, 0.0);
        QVERIFY(bar->label().contains(QStringLiteral("peak")));
        int maps = 0;
        for (int i = 0; i < plot->plottableCount(); ++i) {
            if (auto* map = qobject_cast<QCPColorMap*>(plot->plottable(i))) {
                QCOMPARE(map->dataRange().size(), PairPlot::kBandNats);
                ++maps;
            }
        }
        QCOMPARE(maps, 36);
    }

    void aStepPutsAtMostTheTicksAskedForAndAtLeastOne()
    {
        // The base ticker's step for 3 ticks put 5 on shuttle's x3 (70 to 110), and a step
        // chosen only by the span put none on x8 (20 to 130) when one was asked for.
        const auto ticksOn = [](const QCPRange& r, double step) {
            return int(std::floor(r.upper / step) - std::ceil(r.lower / step)) + 1;
        };
        const QList<QCPRange> ranges{{70.0, 110.0},   {20.0, 130.0}, {-7.0, 7.0},
                                     {0.001, 0.0042}, {-35.0, 35.0}, {37.0, 126.0}};
        for (const QCPRange& r : ranges) {
            for (int count = 1; count <= 4; ++count) {
                const double step = roundStepForAtMost(r, count);
                const int n = ticksOn(r, step);
                QVERIFY2(
                    n >= 1,
                    qPrintable(QString("%1..%2, %3: none").arg(r.lower).arg(r.upper).arg(count)));
                // More than asked only where the step with few enough puts none on it.
                QVERIFY2(n <= std::max(count, 2),
                         qPrintable(QString("%1..%2 asked %3: %4 ticks of %5")
                                        .arg(r.lower)
                                        .arg(r.upper)
                                        .arg(count)
                                        .arg(n)
                                        .arg(step)));
            }
        }
        QCOMPARE(roundStepForAtMost(QCPRange(70.0, 110.0), 3), 20.0);
    }

    void thePanelsAreTheModelOnEachPairsSliceComputedAlone()
    {
        // computePairPanels without a window: each map is the model at its grid points with
        // the other columns at their medians (checked point by point), a cancelled run hands
        // over nothing more, and `skip` leaves out the panels already had.
        std::mt19937 rng(4);
        std::normal_distribution<double> z;
        sosrep::Matrix x(200, 3);
        for (Eigen::Index i = 0; i < x.rows(); ++i) {
            for (Eigen::Index j = 0; j < 3; ++j) {
                x(i, j) = z(rng) * (1.0 + 0.5 * double(j));
            }
        }
        sosrep::FitSettings s = sosrep::FitSettings::defaults("kde");
        s.values.setReal("length_scale", 0.7);
        s.values.set("scale", "none");
        sosrep::FitData data;
        data.train = x;
        data.source = "rows";
        const sosrep::FitOutcome fit = sosrep::fitModel(data, s);
        std::vector<sosrep::PairPanel> panels;
        std::atomic<bool> cancel{false};
        QVERIFY(sosrep::computePairPanels(
            *fit.model, x, 3, 12, [&panels](sosrep::PairPanel p) { panels.push_back(p); }, cancel));
        QCOMPARE(int(panels.size()), 6); // 3 pairs, then 3 diagonals
        const sosrep::Vector medians = sosrep::columnMedians(x);
        for (int k = 0; k < 3; ++k) {
            const sosrep::PairPanel& p = panels[size_t(k)];
            QVERIFY(p.row > p.column);
            const sosrep::GridSpec& g = p.grid.spec;
            QCOMPARE(g.xColumn, p.column);
            QCOMPARE(g.yColumn, p.row);
            for (int j = 0; j < g.ny; j += 5) {
                for (int i = 0; i < g.nx; i += 5) {
                    sosrep::Matrix point = medians.transpose();
                    point(0, g.xColumn) = g.x(i);
                    point(0, g.yColumn) = g.y(j);
                    const double want = fit.model->logValues(point).values(0);
                    QVERIFY2(std::abs(p.grid.logDensity(j, i) - want) < 1e-9,
                             qPrintable(QString("panel %1, cell (%2, %3): %4 vs %5")
                                            .arg(k)
                                            .arg(i)
                                            .arg(j)
                                            .arg(p.grid.logDensity(j, i))
                                            .arg(want)));
                }
            }
        }
        for (int k = 3; k < 6; ++k) {
            QCOMPARE(panels[size_t(k)].row, k - 3);
            QCOMPARE(panels[size_t(k)].column, k - 3);
            QVERIFY(panels[size_t(k)].curve.logValues.size() > 0);
        }
        // Skipping the first four: the last two come, the same as before.
        std::vector<sosrep::PairPanel> rest;
        QVERIFY(sosrep::computePairPanels(
            *fit.model, x, 3, 12, [&rest](sosrep::PairPanel p) { rest.push_back(p); }, cancel, 4));
        QCOMPARE(int(rest.size()), 2);
        QVERIFY(rest[0].curve.logValues == panels[4].curve.logValues);
        // Cancelled before it starts: nothing is handed over, and it says so.
        cancel = true;
        std::vector<sosrep::PairPanel> none;
        QVERIFY(!sosrep::computePairPanels(
            *fit.model, x, 3, 12, [&none](sosrep::PairPanel p) { none.push_back(p); }, cancel));
        QVERIFY(none.empty());
    }

    void escStopsItAndChoosingItAgainGoesOn()
    {
        MainWindow w;
        auto* c = w.session();
        w.openFile(writeTempFile(m_dir, QStringLiteral("six.csv"), columnsCsv(6, 3000)));
        QVERIFY(fitAndWait(w.fits()));
        QSignalSpy cancelled(w.controllers().pairs, &PairPlotController::cancelled);
        connect(w.controllers().pairs, &PairPlotController::panelReady, c, [c](int index) {
            if (index == 1) {
                c->cancel(); // Esc after the second panel
            }
        });
        w.views().densityTab->showPairPlotView();
        QVERIFY(cancelled.wait(60000));
        QVERIFY(w.controllers().pairs->panels().size() < 21);
        QVERIFY(!w.controllers().pairs->complete());
        QObject::disconnect(w.controllers().pairs, &PairPlotController::panelReady, c, nullptr);
        QSignalSpy done(w.controllers().pairs, &PairPlotController::finished);
        w.views().densityTab->showPairPlotView();
        QVERIFY(done.wait(60000));
        QCOMPARE(int(w.controllers().pairs->panels().size()), 21);
        QCOMPARE(w.views().densityPage->pairs()->panelsDrawn(), 21);
    }
};

QTEST_MAIN(TstPairPlot)
#include "tst_pair_plot.moc"
