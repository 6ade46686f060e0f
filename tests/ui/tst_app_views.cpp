// SPDX-License-Identifier: MIT
// The views as a statistician uses them (issue 12): no stale or leftover results, the FD sweep
// kept through a clicked refit, plot columns redrawn without a fit, readable score histograms,
// whole exports and an optimizer view that shows a diverging run beside a converging one.
#include "core/pipeline/fit_route.h"
#include "support/gui_fixtures.h"
#include "support/temp_files.h"
#include "ui/controller/cluster_controller.h"
#include "ui/exporter.h"
#include "ui/main_window.h"
#include "ui/plots/compare_view.h"
#include "ui/plots/density_heatmap.h"
#include "ui/plots/fd_plot.h"
#include "ui/plots/legend_placement.h"
#include "ui/plots/optimizer_view.h"
#include "ui/plots/ratio_plot.h"
#include "ui/plots/ratio_view.h"
#include "ui/plots/score_plots.h"
#include "ui/plots/trace_plot.h"
#include "ui/scores_model.h"
#include "ui/scores_tab.h"
#include "ui/status_panel.h"

#include <QCheckBox>
#include <QLabel>
#include <QScrollArea>
#include <QScrollBar>
#include <QStatusBar>
#include <QTableView>
#include <QtTest>

using namespace sosrep::ui;

class TstAppViews : public QObject
{
    Q_OBJECT

private:
    ScratchDir m_dir;

    /// Three feature columns and a 0/1 label (every 25th row an anomaly).
    /// A left-button drag through `points` (press at the first, release at the last), sent as
    /// events so the widget sees the buttons held during the moves.
    static void drag(QWidget* w, const QVector<QPoint>& points, Qt::KeyboardModifiers modifiers)
    {
        for (int i = 0; i < points.size(); ++i) {
            const QEvent::Type type = i == 0 ? QEvent::MouseButtonPress : QEvent::MouseMove;
            QMouseEvent e(type, points[i], w->mapToGlobal(points[i]), Qt::LeftButton,
                          Qt::LeftButton, modifiers);
            QCoreApplication::sendEvent(w, &e);
        }
        QMouseEvent release(QEvent::MouseButtonRelease, points.last(),
                            w->mapToGlobal(points.last()), Qt::LeftButton, Qt::NoButton, modifiers);
        QCoreApplication::sendEvent(w, &release);
    }

    static int scoreRows(MainWindow& w)
    {
        return w.findChild<QTableView*>(QStringLiteral("scoresTable"))->model()->rowCount();
    }

private slots:
    void initTestCase()
    {
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope,
                           m_dir.filePath(QStringLiteral("settings")));
        QCoreApplication::setOrganizationName(QStringLiteral("SosrepTestsViews"));
    }

    void newDataEmptiesEveryView()
    {
        MainWindow w;
        w.resize(1280, 720);
        auto* c = w.session();
        w.openFile(m_dir.write(QStringLiteral("a.csv"), clusterCsv(300)));
        QVERIFY(fitAndWait(w.fits()));
        QCOMPARE(scoreRows(w), 300);
        QVERIFY(!w.views().trace->runs().isEmpty());
        QVERIFY(w.views().fd->title().startsWith(QStringLiteral("Selected")));
        QVERIFY(w.views().compare->scatterPoints() > 0);

        // B has other rows: nothing of A may stay on any view.
        w.openFile(m_dir.write(QStringLiteral("b.csv"), clusterCsv(120, 5.0)));
        QCOMPARE(int(c->data().rawData().rows()), 120);
        QCOMPARE(scoreRows(w), 0);
        QVERIFY(w.views().trace->runs().isEmpty());
        QVERIFY(w.views().fd->title().contains(QStringLiteral("no sweep yet")));
        QCOMPARE(w.views().compare->scatterPoints(), 0);
        QVERIFY(w.findChild<ScorePlots*>()->histogramTitle().contains(QStringLiteral("fit")));
        QVERIFY(w.status()->staleText().isEmpty());
        const QString out = m_dir.filePath(QStringLiteral("b_scores.csv"));
        QVERIFY(w.exporter()->exportScores(out).contains(QStringLiteral("fit a model first")));
        QVERIFY(!QFile::exists(out));
    }

    void changedSettingsMarkResultsStaleAndExportRefuses()
    {
        MainWindow w;
        auto* c = w.session();
        w.openFile(m_dir.write(QStringLiteral("s.csv"), clusterCsv(300)));
        QVERIFY(fitAndWait(w.fits()));
        QVERIFY(w.status()->staleText().isEmpty());
        QVERIFY(c->setOption("seed", "7"));
        // Issue 24: the banner names options as the panel does, at the panel's precision.
        QVERIFY2(w.status()->staleText().contains(QStringLiteral("Seed 0 → 7")),
                 qPrintable(w.status()->staleText()));
        QVERIFY(c->setOption("length_scale", "0.05209123456789012"));
        QVERIFY2(w.status()->staleText().contains(QStringLiteral("→ 0.0520912")),
                 qPrintable(w.status()->staleText()));
        QVERIFY2(!w.status()->staleText().contains(QStringLiteral("length_scale")),
                 qPrintable(w.status()->staleText()));
        QVERIFY(w.findChild<QLabel*>(QStringLiteral("staleBanner"))->isVisibleTo(&w));
        const QString scores = m_dir.filePath(QStringLiteral("stale.csv"));
        QVERIFY(w.exporter()->exportScores(scores).contains(QStringLiteral("stale")));
        QVERIFY(!QFile::exists(scores));
        const QString plot = m_dir.filePath(QStringLiteral("stale.png"));
        QVERIFY(w.exporter()->exportCurrentPlot(plot, {}).contains(QStringLiteral("stale")));
        QVERIFY(!QFile::exists(plot));
        // Back to the fitted values: fresh again, no refit needed.
        QVERIFY(c->setOption("length_scale", "auto"));
        QVERIFY(c->setOption("seed", "0"));
        QVERIFY(w.status()->staleText().isEmpty());
        QVERIFY(c->setOption("seed", "7"));
        QVERIFY(fitAndWait(w.fits()));
        QVERIFY(w.status()->staleText().isEmpty());
        QCOMPARE(w.exporter()->exportScores(scores), QString());
    }

    void fdClickKeepsTheSweepAndMarksBoth()
    {
        MainWindow w;
        w.resize(1280, 720);
        w.show();
        auto* c = w.session();
        w.openFile(m_dir.write(QStringLiteral("fd.csv"), clusterCsv(300)));
        QVERIFY(fitAndWait(w.fits()));
        w.views().tabs->setCurrentWidget(w.views().fd);
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.views().fd->replot();
        const auto curve = w.fits()->fdCurve();
        const int selected = w.fits()->sweep()->selection.index;
        const int other = selected > 3 ? selected - 3 : selected + 3;
        const QPointF at = w.views().fd->pointPosition(other);
        QVERIFY(w.views().fd->readoutAt(at).contains(QStringLiteral("ℓ = ")));
        QVERIFY(w.views().fd->readoutAt(at).contains(QStringLiteral("J(ℓ) = ")));
        QVERIFY(w.views().fd->readoutAt(QPointF(-50, -50)).isEmpty());

        QSignalSpy finished(c, &Session::fitFinished);
        QTest::mouseClick(w.views().fd, Qt::LeftButton, {}, at.toPoint());
        QVERIFY(finished.wait(60000));
        QCOMPARE(c->result()->lengthScale(), curve[size_t(other)].lengthScale);
        // The sweep is still there, the rule's choice and the clicked point are both marked.
        QCOMPARE(w.fits()->fdCurve().size(), curve.size());
        QCOMPARE(w.fits()->sweep()->selection.index, selected);
        QVERIFY(w.views().fd->marksShown());
        QVERIFY(w.views().fd->title().contains(QStringLiteral("clicked")));
        QVERIFY(w.views().fd->title().contains(QStringLiteral("Selected ℓ")));
        QVERIFY(w.views().fd->title().contains(QStringLiteral("Shown: ℓ = ")));
        // Anything else changed: the old sweep no longer describes the fit.
        QVERIFY(c->setOption("kernel", "laplace"));
        QVERIFY(fitAndWait(w.fits()));
        QVERIFY(w.fits()->fdCurve().empty());
        QVERIFY(!w.views().fd->marksShown());
    }

    void spacingFloorIsShadedForTheAboveSpacingRule()
    {
        MainWindow w;
        auto* c = w.session();
        w.openFile(m_dir.write(QStringLiteral("sp.csv"), clusterCsv(300)));
        QVERIFY(c->setOption("selection", "above-spacing"));
        QVERIFY(fitAndWait(w.fits()));
        QVERIFY(w.views().fd->shadesExcluded());
        QVERIFY(w.fits()->sweep()->spacing > 0.0);
        QVERIFY(c->setOption("selection", "paper"));
        QVERIFY(fitAndWait(w.fits()));
        QVERIFY(!w.views().fd->shadesExcluded()); // the paper's rule looks everywhere
    }

    void plotColumnsRedrawWithoutAFit()
    {
        MainWindow w;
        auto* c = w.session();
        w.openFile(m_dir.write(QStringLiteral("xy.csv"), clusterCsv(300)));
        QVERIFY(fitAndWait(w.fits()));
        const double seconds = c->result()->seconds;
        QSignalSpy fits(c, &Session::fitFinished);
        QSignalSpy busy(c, &Session::busyChanged);
        QSignalSpy grids(c, &Session::gridsUpdated);
        c->setPlotColumns(0, 2);
        QVERIFY(grids.wait(30000));
        QCOMPARE(fits.count(), 0);
        QCOMPARE(busy.count(), 0);
        QCOMPARE(c->result()->seconds, seconds); // the same fit
        QCOMPARE(c->result()->grid.spec.yColumn, 2);
        QCOMPARE(w.views().density->yAxis->label(), QStringLiteral("c"));
        QVERIFY(c->result()->grid.logDensity.allFinite());
        QVERIFY(w.status()->staleText().isEmpty()); // a view choice, not a model setting

        // Columns changed while a fit runs: the finished fit's grids follow them.
        QSignalSpy finished(c, &Session::fitFinished);
        w.fits()->fit();
        c->setPlotColumns(1, 2);
        QVERIFY(finished.wait(60000));
        QTRY_COMPARE_WITH_TIMEOUT(c->result()->grid.spec.xColumn, 1, 30000);
        QCOMPARE(c->result()->grid.spec.yColumn, 2);
        QTRY_COMPARE(w.views().density->xAxis->label(), QStringLiteral("b"));
    }

    void scoreHistogramReadsOnHeavyTails()
    {
        // 2000 normal rows near 1 and 20 anomalies, 5 of them at 2e4 (shuttle-like tails).
        Eigen::VectorXd s(2020);
        Eigen::VectorXi labels = Eigen::VectorXi::Zero(2020);
        for (int i = 0; i < 2000; ++i) {
            s(i) = 1.0 + 0.001 * (i % 1000);
        }
        for (int i = 2000; i < 2020; ++i) {
            s(i) = i < 2005 ? 2e4 : 1.9 + 0.001 * i;
            labels(i) = 1;
        }
        ScorePlots plots;
        plots.setScores(s, labels, false, {0, 1, 2, 3});
        QVERIFY(plots.histogramTitle().contains(QStringLiteral("clipped")));
        QVERIFY(plots.histogramTitle().contains(QStringLiteral("counted in the edge")));
        QVERIFY(plots.histogramRange().upper < 100.0); // not stretched to 2e4
        // Per-class shares: each class's bars sum to one, so 20 anomalies are as tall as they
        // would be among 20 rows.
        for (int g = 0; g < 2; ++g) {
            double sum = 0.0;
            for (auto it = plots.graph(g)->data()->begin(); it != plots.graph(g)->data()->end();
                 ++it) {
                sum += it->value;
            }
            QVERIFY2(std::abs(sum - 1.0) < 1e-12, qPrintable(QString::number(sum)));
        }
        QVERIFY(plots.graph(2)->visible()); // the fitted rows' outline
        // No heavy tail: the full range, nothing said.
        plots.setScores(s.head(2000), std::nullopt);
        QVERIFY(!plots.histogramTitle().contains(QStringLiteral("clipped")));
        QVERIFY(!plots.graph(2)->visible());
    }

    void compareExportHoldsEveryPanel()
    {
        MainWindow w;
        w.resize(1280, 720);
        w.show();
        w.openFile(m_dir.write(QStringLiteral("cmp.csv"), clusterCsv(300)));
        QSignalSpy clusters(w.controllers().clusters, &ClusterController::ready);
        QVERIFY(fitAndWait(w.fits()));
        QVERIFY(clusters.wait(30000));
        w.views().tabs->setCurrentWidget(w.views().compare);
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QCOMPARE(w.exporter()->currentPlot(), static_cast<QWidget*>(w.views().compare));
        const QString svgPath = m_dir.filePath(QStringLiteral("compare.svg"));
        QCOMPARE(w.exporter()->exportCurrentPlot(svgPath, {1400, 1000, 96}), QString());
        QFile f(svgPath);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString svg = QString::fromUtf8(f.readAll());
        // Three colour maps and two colour scales (the models share one), each an image; the
        // maps' titles; the bottom row's panels.
        QCOMPARE(int(svg.count(QStringLiteral("<image"))), 5);
        for (DensityHeatmap* map : {w.views().compare->firstView(), w.views().compare->secondView(),
                                    w.views().compare->differenceView()}) {
            const QString head = map->title().left(14).toHtmlEscaped();
            QVERIFY2(svg.contains(head), qPrintable(head));
        }
        QVERIFY(svg.contains(QStringLiteral("rows ordered by cluster")));
        QVERIFY(svg.contains(QStringLiteral("anomaly percentile")));
        // The read-outs between the rows are in it too.
        QVERIFY(svg.contains(QStringLiteral("Spearman")));
        const QString png = m_dir.filePath(QStringLiteral("compare.png"));
        QCOMPARE(w.exporter()->exportCurrentPlot(png, {700, 500, 192}), QString());
        QCOMPARE(QImage(png).size(), QSize(1400, 1000));
        // Exported files get the user's default permissions (a PDF was 0600).
        const QString pdf = m_dir.filePath(QStringLiteral("compare.pdf"));
        QCOMPARE(w.exporter()->exportCurrentPlot(pdf, {}), QString());
        QVERIFY(QFileInfo(pdf).permissions().testFlag(QFileDevice::ReadOther) ==
                QFileInfo(png).permissions().testFlag(QFileDevice::ReadOther));
        QVERIFY(QFileInfo(pdf).permissions().testFlag(QFileDevice::ReadGroup) ==
                QFileInfo(png).permissions().testFlag(QFileDevice::ReadGroup));
    }

    void optimizerShowsADivergingRunBesideAConvergingOne()
    {
        // The demo: at the default step 0.1 the standard gradient diverges (loss to 1e13).
        MainWindow w;
        auto* c = w.session();
        c->generateToy(sosrep::ToyKind::TwoMoons, 500, 0);
        QVERIFY(fitAndWait(w.fits()));
        const sosrep::NamedTrace* standard = nullptr;
        for (const sosrep::NamedTrace& t : w.fits()->traces()) {
            standard = t.run == "standard" ? &t : standard;
        }
        QVERIFY(standard);
        QVERIFY(standard->status == sosrep::SolverStatus::Diverged);
        TracePlot* plot = w.views().trace;
        QVERIFY(plot->divergenceText().contains(QStringLiteral("diverged at iteration")));
        // Each run on its own loss axis: the natural run's axis spans its own few decades.
        QCPAxis* natural = plot->lossAxisOf("natural");
        QCPAxis* standardAxis = plot->lossAxisOf("standard");
        QVERIFY(natural != standardAxis);
        QVERIFY2(natural->range().upper / natural->range().lower < 1e4,
                 qPrintable(QStringLiteral("%1 .. %2")
                                .arg(natural->range().lower)
                                .arg(natural->range().upper)));
        QVERIFY(standardAxis->range().upper > 1e6);

        // The Newton path can be hidden and shown.
        auto* newton = w.views().optimizer->findChild<QCheckBox*>();
        QVERIFY(newton);
        newton->setChecked(false);
        for (int i = 0; i < plot->graphCount(); ++i) {
            if (plot->graph(i)->name().startsWith(QStringLiteral("Newton"))) {
                QVERIFY(!plot->graph(i)->visible());
            }
        }
        newton->setChecked(true);

        // The paper's Fig. 3 setting in one click: no refit, the runs at lambda = 0.01.
        QSignalSpy fits(c, &Session::fitFinished);
        const double seconds = c->result()->seconds;
        w.views().optimizer->runPaperSetting();
        QVERIFY(c->isBusy());
        QTRY_VERIFY_WITH_TIMEOUT(!c->isBusy(), 60000);
        QCOMPARE(fits.count(), 0);
        QCOMPARE(c->result()->seconds, seconds);
        QCOMPARE(c->solverComparison().learningRate, 0.01);
        QCOMPARE(int(c->result()->solverRuns.size()), 2);
        for (const sosrep::NamedTrace& t : c->result()->solverRuns) {
            QVERIFY(t.status != sosrep::SolverStatus::Running);
            QVERIFY(t.rows.size() > 2);
        }
        QCOMPARE(plot->runs(), (QStringList{QStringLiteral("natural"), QStringLiteral("newton"),
                                            QStringLiteral("standard")}));
    }

    void largeFitsRunTheOptimizerComparisonWhenItsViewIsShown()
    {
        // mnist (7603 centres): the 2 x 500 comparison products took 14.5 s of a 34 s fit. A fit
        // above eagerMaxCentres leaves them for the Optimizer view, which starts them once shown.
        MainWindow w;
        w.resize(1280, 720);
        w.show();
        auto* c = w.session();
        c->generateToy(sosrep::ToyKind::TwoMoons, 500, 0);
        SolverComparisonSettings s = c->solverComparison();
        s.eagerMaxCentres = 100;
        c->setSolverComparison(s);
        QVERIFY(fitAndWait(w.fits()));
        QVERIFY(c->result()->solverRuns.empty());
        QVERIFY(w.fits()->solverComparisonDeferred());
        QVERIFY(!c->isBusy());
        auto* note = w.views().optimizer->findChild<QLabel*>(QStringLiteral("deferredNote"));
        QVERIFY(note && !note->isHidden());
        QVERIFY2(note->text().contains(QStringLiteral("500 kernel centres")),
                 qPrintable(note->text()));
        QVERIFY(!w.views().trace->runs().contains(QStringLiteral("standard")));
        // Nothing names curves that are not there yet: no legend entries, no standard-loss axis.
        auto legendNames = [&w] {
            QStringList names;
            QCPLegend* legend = w.views().trace->legend;
            for (int i = 0; i < legend->itemCount(); ++i) {
                if (auto* item = qobject_cast<QCPPlottableLegendItem*>(legend->item(i))) {
                    names << item->plottable()->name();
                }
            }
            return names.join(QLatin1Char('|'));
        };
        QCPAxis* standardAxis = w.views().trace->lossAxisOf("standard");
        QVERIFY2(!legendNames().contains(QStringLiteral("gradient")), qPrintable(legendNames()));
        QVERIFY(!standardAxis->visible());

        QSignalSpy done(w.fits(), &FitController::solverComparisonFinished);
        w.views().tabs->setCurrentWidget(w.views().optimizer);
        QVERIFY(c->isBusy());
        QVERIFY(!w.fits()->solverComparisonDeferred());
        QVERIFY(done.wait(60000));
        QCOMPARE(int(c->result()->solverRuns.size()), 2);
        QVERIFY(note->isHidden());
        QVERIFY(w.views().trace->runs().contains(QStringLiteral("natural")));
        QVERIFY(w.views().trace->runs().contains(QStringLiteral("standard")));
        QVERIFY(legendNames().contains(QStringLiteral("natural gradient")));
        QVERIFY(legendNames().contains(QStringLiteral("standard gradient")));
        QVERIFY(standardAxis->visible());
        // Shown again: nothing runs twice.
        w.views().tabs->setCurrentIndex(0);
        w.views().tabs->setCurrentWidget(w.views().optimizer);
        QVERIFY(!c->isBusy());

        // Fitted while the view is on screen: the runs start at once; a cancelled run is not
        // restarted by showing the view again (Run is there for that). A tiny step and many
        // iterations keep them running until the cancel.
        s.learningRate = 1e-4;
        s.iterations = 100000;
        c->setSolverComparison(s);
        QVERIFY(fitAndWait(w.fits()));
        QVERIFY(c->isBusy());
        QSignalSpy fitCancelled(w.fits(), &FitController::fitCancelled);
        c->cancel();
        QVERIFY(done.wait(60000));
        QVERIFY(c->result()->solverRuns.empty());
        // Issue 24: Esc on these runs said "Fit cancelled"; the fit was not.
        QCOMPARE(fitCancelled.count(), 0);
        QVERIFY2(
            w.statusBar()->currentMessage().contains(QStringLiteral("Optimizer runs cancelled")),
            qPrintable(w.statusBar()->currentMessage()));
        w.views().tabs->setCurrentIndex(0);
        w.views().tabs->setCurrentWidget(w.views().optimizer);
        QVERIFY(!c->isBusy());
        QVERIFY(note->isHidden());
    }

    void fitTimeSaysWhereItWent()
    {
        MainWindow w;
        auto* c = w.session();
        c->generateToy(sosrep::ToyKind::TwoMoons, 300, 0);
        QVERIFY(fitAndWait(w.fits()));
        const FitJobResult& r = *c->result();
        QStringList names;
        double sum = 0.0;
        for (const FitJobResult::Stage& st : r.stages) {
            names << QString::fromStdString(st.name);
            QVERIFY(st.seconds >= 0.0);
            sum += st.seconds;
        }
        // The Scores view's stage (its anomaly model, then every row's score) and the compare
        // view's run last, in that order (after the fit, for large data).
        QCOMPARE(names, (QStringList{QStringLiteral("model"), QStringLiteral("optimizer runs"),
                                     QStringLiteral("maps"), QStringLiteral("anomaly model"),
                                     QStringLiteral("row scores"), QStringLiteral("comparison")}));
        QVERIFY2(sum <= r.seconds + 1e-9 && sum > 0.5 * r.seconds,
                 qPrintable(QStringLiteral("%1 of %2").arg(sum).arg(r.seconds)));
        // Fast fits give the total alone; a slow one its stages too.
        FitJobResult slow;
        slow.seconds = 19.6;
        slow.stages = {{"model", 13.04}, {"comparison", 6.5}, {"maps", 0.04}};
        QCOMPARE(StatusPanel::fitTimeText(slow),
                 QStringLiteral("19.60 s (model 13.0 s, comparison 6.5 s, maps 0.0 s)"));
        slow.seconds = 0.25;
        QCOMPARE(StatusPanel::fitTimeText(slow), QStringLiteral("0.25 s"));
    }

    void axesInRawUnitsAndLinkedViews()
    {
        // Columns in their own units: heights 150-200 cm and weights 45-110 kg.
        QByteArray csv("height_cm,weight_kg\n");
        for (int i = 0; i < 200; ++i) {
            csv += QByteArray::number(150.0 + (i * 37 % 50), 'g', 10) + ',' +
                   QByteArray::number(45.0 + (i * 53 % 65), 'g', 10) + '\n';
        }
        MainWindow w;
        w.resize(1280, 720);
        w.show();
        auto* c = w.session();
        w.openFile(m_dir.write(QStringLiteral("units.csv"), csv));
        QVERIFY(fitAndWait(w.fits()));
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        DensityHeatmap* map = w.views().density;
        map->replot();
        // Tick labels are heights in cm, placed where they fall on the scaled axis.
        const QVector<QString> labels = map->xAxis->tickVectorLabels();
        QVERIFY(!labels.isEmpty());
        for (const QString& l : labels) {
            bool ok = false;
            const double v = l.toDouble(&ok);
            QVERIFY2(ok && v >= 140.0 && v <= 210.0, qPrintable(l));
        }
        // Hover on a row: its number, raw values with the scaled ones, its score.
        const Eigen::Index row = 7;
        const QPointF at(map->xAxis->coordToPixel(c->data().features()(row, 0)),
                         map->yAxis->coordToPixel(c->data().features()(row, 1)));
        const QString readout = map->readoutAt(at);
        QVERIFY2(readout.contains(QStringLiteral("height_cm = ")) &&
                     readout.contains(QStringLiteral("(scaled")) &&
                     readout.contains(QStringLiteral("anomaly score")),
                 qPrintable(readout));
        // (a row at the same pixel has the same values)
        QVERIFY(readout.contains(QString::number(c->data().featureData().x(row, 0), 'g', 5)));

        // Table -> maps: selected rows are ringed on the density and compare maps.
        w.selectRows({1, 2, 3});
        QCOMPARE(w.views().scores->selectedRows().size(), 3);
        QCOMPARE(map->highlightedCount(), 3);
        QCOMPARE(w.views().compare->firstView()->highlightedCount(), 3);

        // Map -> table: a shift-drag selects the rows inside the rectangle.
        const QRect plotArea = map->axisRect()->rect();
        const QPoint from = plotArea.topLeft() + QPoint(5, 5);
        const QPoint to = plotArea.center();
        const QList<qint64> expected =
            map->rowsIn(map->xAxis->pixelToCoord(from.x()), map->xAxis->pixelToCoord(to.x()),
                        map->yAxis->pixelToCoord(to.y()), map->yAxis->pixelToCoord(from.y()));
        QVERIFY(!expected.isEmpty());
        QSignalSpy picked(map, &DensityHeatmap::rowsPicked);
        drag(map, {from, (from + to) / 2, to}, Qt::ShiftModifier);
        QCOMPARE(picked.count(), 1);
        QList<qint64> got = w.views().scores->selectedRows();
        std::sort(got.begin(), got.end());
        QCOMPARE(got, expected);
        QCOMPARE(map->highlightedCount(), int(expected.size()));
        QCOMPARE(map->selectionRectMode(), QCP::srmNone); // a plain drag pans again
    }

    void legendTakesTheEmptiestCornerUnlessDragged()
    {
        QCustomPlot plot;
        plot.resize(400, 300);
        auto* rect = plot.axisRect();
        auto* legend = new QCPLegend;
        rect->insetLayout()->addElement(legend, Qt::AlignTop | Qt::AlignRight);
        QCPGraph* g = plot.addGraph();
        g->setName(QStringLiteral("points"));
        legend->addItem(new QCPPlottableLegendItem(legend, g));
        plot.xAxis->setRange(0, 10);
        plot.yAxis->setRange(0, 10);
        // Points fill every corner but the bottom left.
        QVector<double> x, y;
        for (int i = 0; i <= 20; ++i) {
            for (int j = 0; j <= 20; ++j) {
                if (i > 6 || j > 6) {
                    x << i * 0.5;
                    y << j * 0.5;
                }
            }
        }
        g->setData(x, y);
        placeInsetLegends(&plot);
        QCOMPARE(rect->insetLayout()->insetAlignment(0), Qt::AlignBottom | Qt::AlignLeft);
        plot.replot();
        const QRect box = legend->outerRect();
        QVERIFY2(box.center().x() < rect->rect().center().x() &&
                     box.center().y() > rect->rect().center().y(),
                 qPrintable(QStringLiteral("legend at %1,%2").arg(box.x()).arg(box.y())));
        // Now the data leave the top right free: the legend goes there (a tie keeps the corner).
        x.clear();
        y.clear();
        for (int i = 0; i <= 20; ++i) {
            x << i * 0.25;
            y << i * 0.25;
        }
        g->setData(x, y);
        placeInsetLegends(&plot);
        const Qt::Alignment free = rect->insetLayout()->insetAlignment(0);
        QVERIFY(free == (Qt::AlignTop | Qt::AlignRight) ||
                free == (Qt::AlignBottom | Qt::AlignRight) ||
                free == (Qt::AlignTop | Qt::AlignLeft));
        // A legend the user dragged stays where it was put.
        rect->insetLayout()->setInsetPlacement(0, QCPLayoutInset::ipFree);
        const QRectF put(0.3, 0.3, 0.2, 0.1);
        rect->insetLayout()->setInsetRect(0, put);
        g->setData({9.5}, {0.5});
        placeInsetLegends(&plot);
        QCOMPARE(rect->insetLayout()->insetPlacement(0), QCPLayoutInset::ipFree);
        QCOMPARE(rect->insetLayout()->insetRect(0), put);
    }

    void legendDragsOffTheDataWithoutPanning()
    {
        MainWindow w;
        w.resize(1280, 720);
        w.show();
        auto* c = w.session();
        c->generateToy(sosrep::ToyKind::TwoMoons, 300, 0);
        QVERIFY(fitAndWait(w.fits()));
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        DensityHeatmap* map = w.views().density;
        map->replot();
        const QRect before = map->legend->outerRect();
        const QCPRange xRange = map->xAxis->range();
        const QPoint grab = before.center();
        const QPoint drop = grab + QPoint(-300, 200);
        drag(map, {grab, drop}, Qt::NoModifier);
        map->replot();
        const QRect after = map->legend->outerRect();
        QVERIFY2(std::abs(after.center().x() - drop.x()) <= 6 &&
                     std::abs(after.center().y() - drop.y()) <= 6,
                 qPrintable(QStringLiteral("%1,%2 before %3,%4 %5x%6 after %7x%8 area %9")
                                .arg(after.center().x())
                                .arg(after.center().y())
                                .arg(before.center().x())
                                .arg(before.center().y())
                                .arg(before.width())
                                .arg(before.height())
                                .arg(after.width())
                                .arg(after.height())
                                .arg(QStringLiteral("%1,%2 %3x%4")
                                         .arg(map->axisRect()->rect().left())
                                         .arg(map->axisRect()->rect().top())
                                         .arg(map->axisRect()->rect().width())
                                         .arg(map->axisRect()->rect().height()))));
        QCOMPARE(map->xAxis->range(), xRange);                  // the map did not pan
        QVERIFY(map->interactions().testFlag(QCP::iRangeDrag)); // and pans again afterwards
    }

    void fittedSubsampleIsMarkedInTheTable()
    {
        MainWindow w;
        auto* c = w.session();
        w.openFile(m_dir.write(QStringLiteral("sub.csv"), clusterCsv(400)));
        c->setOption("max_fit_rows", std::to_string(150));
        QVERIFY(fitAndWait(w.fits()));
        QAbstractItemModel* m = w.findChild<QTableView*>(QStringLiteral("scoresTable"))->model();
        int fittedColumn = -1;
        for (int col = 0; col < m->columnCount(); ++col) {
            if (m->headerData(col, Qt::Horizontal).toString() == QStringLiteral("fitted")) {
                fittedColumn = col;
            }
        }
        QVERIFY(fittedColumn >= 0);
        int yes = 0;
        for (int r = 0; r < m->rowCount(); ++r) {
            yes += m->index(r, fittedColumn).data().toString() == QStringLiteral("yes") ? 1 : 0;
        }
        QCOMPARE(yes, 150);
        QCOMPARE(int(c->result()->fitRowIndices.size()), 150);
        QVERIFY(w.findChild<ScorePlots*>()->graph(2)->visible());
        // The density map draws the rows outside the subsample apart (anomalies keep their
        // marks).
        int unfittedNormal = 0;
        const auto& fitRows = c->result()->fitRowIndices;
        for (Eigen::Index r = 0; r < 400; ++r) {
            unfittedNormal += (*c->data().labels())(r) == 0 &&
                                      !std::binary_search(fitRows.begin(), fitRows.end(), r)
                                  ? 1
                                  : 0;
        }
        QCPGraph* unfitted = nullptr;
        for (int i = 0; i < w.views().density->graphCount(); ++i) {
            QCPGraph* g = w.views().density->graph(i);
            unfitted = g->name().contains(QStringLiteral("not fitted on")) ? g : unfitted;
        }
        QVERIFY(unfitted);
        QCOMPARE(unfitted->dataCount(), unfittedNormal);
        QVERIFY(w.views().density->title().contains(QStringLiteral("fitted on 150 of 400")));
    }

    void theFitRowCapIsTheSettingsMaxFitRows()
    {
        // Regression (issue 53, item 4): core's max_fit_rows appeared in the Data panel at
        // 100000 while the app fitted at most its own 10000: two caps, the shown one inert.
        // Now one setting: the app starts it at 10000, the panel's field edits it, and the
        // fit takes the rows `sosrep fit --max-fit-rows` takes.
        MainWindow w;
        auto* c = w.session();
        QCOMPARE(c->settings().values.integer("max_fit_rows"), Session::kAppMaxFitRows);
        QCOMPARE(c->settings().values.integer("max_fit_rows"), 10000);
        w.openFile(m_dir.write(QStringLiteral("cap.csv"), clusterCsv(400)));
        QVERIFY(c->setOption("max_fit_rows", "120"));
        QCOMPARE(c->settings().values.integer("max_fit_rows"), 120);
        QVERIFY(fitAndWait(w.fits()));
        QCOMPARE(c->result()->fitRowIndices,
                 sosrep::fitSubsample(400, 120, c->settings().values.seed("seed")));
        QVERIFY(c->staleReason().isEmpty());
        c->setOption("max_fit_rows", std::to_string(200));
        QVERIFY(c->staleReason().contains(QStringLiteral("120")));
        // An estimator switch keeps it (a shared option).
        c->setEstimator("kde");
        QCOMPARE(c->settings().values.integer("max_fit_rows"), 200);
    }

    // At 1280x720 the Ratio view's controls fit their column: nothing clipped on the right and
    // no horizontal scrolling (it showed half of every field before).
    void ratioControlsFitTheirColumnAt1280x720()
    {
        MainWindow w;
        w.resize(1280, 720);
        w.show();
        w.views().tabs->setCurrentWidget(w.views().ratio);
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* scroll = w.views().ratio->findChild<QScrollArea*>();
        QVERIFY(scroll);
        QCoreApplication::processEvents();
        const int need = scroll->widget()->minimumSizeHint().width();
        const int have = scroll->viewport()->width();
        if (need > have) {
            for (QWidget* child : scroll->widget()->findChildren<QWidget*>()) {
                if (child->isVisibleTo(scroll) && child->minimumSizeHint().width() > have / 3) {
                    qWarning() << child->metaObject()->className() << child->objectName()
                               << child->minimumSizeHint().width()
                               << child->property("text").toString()
                               << child->parentWidget()->metaObject()->className();
                }
            }
        }
        QVERIFY2(need <= have, qPrintable(QStringLiteral("%1 > %2").arg(need).arg(have)));
        QVERIFY(!scroll->horizontalScrollBar()->isVisible());
        QVERIFY(w.views().ratio->findChild<RatioPlot*>()->width() >= 400);
    }
};

QTEST_MAIN(TstAppViews)
#include "tst_app_views.moc"
