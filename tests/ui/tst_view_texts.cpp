// SPDX-License-Identifier: MIT
// What the views say (issue 38): the FD tab for a detector before its fit, the compare
// colour bar's caption whole, the hover's value under the pointer, the FD title's one bold
// line, Generate's note on a reset length scale, and the generator after a project.
#include "core/grid/density_grid.h"
#include "ui/controller/fit_job.h"
#include "ui/controller/session.h"
#include "ui/controller/threshold_controller.h"
#include "ui/main_window.h"
#include "ui/plots/compare_view.h"
#include "ui/plots/density_heatmap.h"
#include "ui/plots/fd_plot.h"
#include "ui/project_file.h"
#include "ui/project_files.h"
#include "ui/scores_tab.h"
#include "ui/status_panel.h"

#include "support/gui_fixtures.h"

#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QToolButton>
#include <QToolTip>
#include <QtTest>

using namespace sosrep::ui;

class TstViewTexts : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    /// Three columns, two rows in three exactly 0 and the others over a long tail: scale=auto
    /// scales them by rank for anomaly ranking and min-max for the density.
    QString writeSpikes()
    {
        QByteArray csv = "a,b,c\n";
        for (int i = 0; i < 300; ++i) {
            for (int j = 0; j < 3; ++j) {
                const double u = std::fmod((i + 1) * (0.6180339887 + 0.1 * j), 1.0);
                csv += QByteArray::number((i + j) % 3 == 0 ? 1.0 / (0.02 + u) : 0.0, 'g', 10);
                csv += j < 2 ? ',' : '\n';
            }
        }
        const QString path = m_dir.filePath(QStringLiteral("spikes.csv"));
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly)) {
            return {};
        }
        f.write(csv);
        return path;
    }

private slots:
    void aDetectorsFdTabSaysItHasNoLengthScaleBeforeItsFit()
    {
        MainWindow w;
        auto* c = w.session();
        c->generateToy(sosrep::ToyKind::TwoMoons, 200, 0);
        c->setEstimator("iforest");
        QVERIFY2(w.views().fd->title().contains(QStringLiteral("iforest has no length scale")),
                 qPrintable(w.views().fd->title()));
        QVERIFY(!w.views().fd->title().contains(QStringLiteral("not fitted")));
    }

    void theFdTitleIsOneBoldLineAndTheRulesWordsBelow()
    {
        MainWindow w;
        auto* c = w.session();
        c->generateToy(sosrep::ToyKind::TwoMoons, 300, 0);
        QVERIFY(fitAndWait(w.fits()));
        const QString head = w.views().fd->headline();
        QVERIFY2(head.startsWith(QStringLiteral("Selected ℓ")), qPrintable(head));
        QVERIFY(!head.contains(QLatin1Char('\n')));
        QVERIFY(w.views().fd->title().size() > head.size()); // the words follow, not in bold
    }

    void theLengthScaleMultiplierIsSaidAndAClickedScaleIsFittedAsItIs()
    {
        MainWindow w;
        auto* c = w.session();
        c->generateToy(sosrep::ToyKind::TwoMoons, 300, 0);
        sosrep::FitSettings s = c->settings();
        s.values.set("bw_adjust", "1.5");
        c->setSettings(s);
        QVERIFY(fitAndWait(w.fits()));
        const sosrep::FitOutcome& f = c->result()->fit;
        QVERIFY(f.search);
        const double chosen = f.search->curve[size_t(f.search->selection.index)].lengthScale;
        QVERIFY(std::abs(f.lengthScale - 1.5 * chosen) < 1e-12 * chosen);
        const QString head = w.views().fd->headline();
        QVERIFY2(head.contains(QStringLiteral("ℓ multiplier")) &&
                     head.contains(QString::number(1.5 * chosen, 'g', 4)),
                 qPrintable(head));
        // The Scores view's line says its members were multiplied too.
        bool said = false;
        for (const QLabel* l : w.findChildren<QLabel*>()) {
            said = said || l->text().contains(QStringLiteral("All fitted at 1.5 × these"));
        }
        QVERIFY(said);
        // A point clicked on the curve is fitted at that l: the multiplier goes back to 1.
        const double clicked = f.search->curve.front().lengthScale;
        QSignalSpy refitted(c, &Session::fitFinished);
        w.fits()->fitAtLengthScale(clicked);
        QVERIFY(refitted.wait(60000));
        QCOMPARE(c->settings().values.real("bw_adjust"), 1.0);
        QVERIFY(std::abs(c->result()->lengthScale() - clicked) < 1e-12 * clicked);
        QVERIFY(!w.views().fd->headline().contains(QStringLiteral("ℓ multiplier")));
    }

    // wide_scale=auto on heavy-tailed columns: the Scores view names each of the anomaly
    // rule's views for what it is (the wide one was called the reach once).
    void theScoresLineNamesTheWideView()
    {
        MainWindow w;
        auto* c = w.session();
        QByteArray csv = "a,b\n";
        for (int i = 0; i < 400; ++i) {
            // Pareto-like columns, 1/(0.02 + u) of well-spread u: a few rows far out.
            const double u = std::fmod(i * 0.6180339887, 1.0);
            const double v = std::fmod(i * 0.7548776662 + 0.3, 1.0);
            csv += QByteArray::number(1.0 / (0.02 + u), 'g', 10) + ',' +
                   QByteArray::number(1.0 / (0.02 + v), 'g', 10) + '\n';
        }
        QVERIFY(m_dir.isValid());
        const QString path = m_dir.filePath(QStringLiteral("heavy.csv"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(csv);
        f.close();
        QVERIFY(w.openFile(path));
        QVERIFY(fitAndWait(w.fits()));
        const auto& members = c->result()->scoresOutcome().search->selection.memberScales;
        QString line;
        for (const QLabel* l : w.findChildren<QLabel*>()) {
            line = l->text().startsWith(QStringLiteral("Scores, tuned")) ? l->text() : line;
        }
        const double reach = c->result()->scoresOutcome().search->reach;
        QVERIFY2(members.size() >= 2 && members.back() != reach, qPrintable(line));
        QVERIFY2(line.contains(QStringLiteral("at the median pairwise distance, ℓ = %1")
                                   .arg(members.back(), 0, 'g', 4)),
                 qPrintable(line));
        // The reach is named only when it is a member (here it is no larger than the
        // density's ℓ, so the wide view is the second).
        QCOMPARE(line.contains(QStringLiteral("at the reach of")), members.size() == 3);
    }

    // scale=auto on spike-and-tail columns: the Scores view's model is the anomaly purpose's in
    // rank-scaled columns with a curve of its own; its line says so, and the FD view's star
    // serves the density view alone.
    void theScoresLineSaysItsOwnScaling()
    {
        MainWindow w;
        auto* c = w.session();
        const QString path = writeSpikes();
        QVERIFY(w.openFile(path));
        QVERIFY(fitAndWait(w.fits()));
        QVERIFY(c->result()->scoresScaler.has_value());
        QCOMPARE(toString(c->result()->scoresScaler->kind), std::string("rank"));
        QCOMPARE(toString(c->data().scaler().kind), std::string("minmax"));
        const QString line = w.views().scores->tuningText();
        QVERIFY2(line.contains(QStringLiteral("rank-scaled")) &&
                     line.contains(QStringLiteral("minmax-scaled")),
                 qPrintable(line));
        auto* fd = w.findChild<FdPlot*>();
        QVERIFY(fd);
        QVERIFY2(!fd->title().contains(QStringLiteral("and the scores")), qPrintable(fd->title()));
        QVERIFY(!fd->marksReach());
        // Purpose density: one scaling, one model for both views. The density view's rows do not
        // move, so the views keep their state (no dataChanged, which resets the Show box).
        QSignalSpy moved(c, &Session::dataChanged);
        QVERIFY(c->setOption("purpose", "density"));
        c->setEstimator("iforest"); // no purpose: min-max, as the density view
        c->setEstimator("sosrep");
        QVERIFY(c->setOption("purpose", "density"));
        QCOMPARE(moved.count(), 0);
        QVERIFY(fitAndWait(w.fits()));
        QVERIFY(!c->result()->scoresScaler.has_value());
        QVERIFY(!c->result()->scoresFit.has_value());
    }

    // The Scores view's own model warns on its own (here its length scale is far below the
    // rank-scaled rows' spacing, another number than the density's): the banner's list says
    // it, named as the Scores view's.
    void theScoresModelsOwnWarningsAreListed()
    {
        MainWindow w;
        auto* c = w.session();
        QVERIFY(w.openFile(writeSpikes()));
        c->setEstimator("kde");
        QVERIFY(c->setOption("length_scale", "1e-5"));
        QVERIFY(fitAndWait(w.fits()));
        QVERIFY(c->result()->scoresScaler.has_value());
        const QStringList all = c->warnings();
        QVERIFY2(
            all.filter(QStringLiteral("Scores view: the length scale 1e-05 is far below")).size() ==
                1,
            qPrintable(all.join(QLatin1Char('\n'))));
        QVERIFY2(all.filter(QRegularExpression(QStringLiteral("^the length scale 1e-05 is far")))
                         .size() == 1,
                 qPrintable(all.join(QLatin1Char('\n'))));
    }

    void theCompareColourBarsCaptionFits()
    {
        MainWindow w;
        w.resize(1280, 720);
        w.show();
        auto* c = w.session();
        c->generateToy(sosrep::ToyKind::TwoMoons, 400, 0);
        c->setEstimator("iforest"); // compared by rank with SOSREP: the percentile maps
        QSignalSpy compared(c, &Session::comparisonReady);
        QVERIFY(fitAndWait(w.fits()));
        QVERIFY(c->result()->comparison || compared.wait(60000));
        w.views().tabs->setCurrentWidget(w.views().compare);
        QCoreApplication::processEvents();
        for (DensityHeatmap* map :
             {w.views().compare->firstView(), w.views().compare->secondView()}) {
            map->replot();
            QCPColorScale* scale = map->colorScale();
            const QString caption = scale->axis()->label();
            QVERIFY2(caption.contains(QStringLiteral("100: most normal")), qPrintable(caption));
            const int width = QFontMetrics(scale->axis()->labelFont()).horizontalAdvance(caption);
            const QRect bar = scale->axis()->axisRect()->rect();
            const int length =
                scale->axis()->orientation() == Qt::Vertical ? bar.height() : bar.width();
            QVERIFY2(width <= length,
                     qPrintable(QStringLiteral("%1 px for %2 px").arg(width).arg(length)));
        }
    }

    void theHoverSaysTheMapsValueNearARowToo()
    {
        MainWindow w;
        w.resize(1280, 720);
        w.show();
        auto* c = w.session();
        c->generateToy(sosrep::ToyKind::TwoMoons, 300, 0);
        QVERIFY(fitAndWait(w.fits()));
        QTRY_VERIFY_WITH_TIMEOUT(c->result()->scoresReady(), 30000);
        DensityHeatmap* map = w.views().density;
        map->replot();
        const sosrep::Matrix& x = c->data().features();
        const QPointF at(map->xAxis->coordToPixel(x(0, c->data().plotX())),
                         map->yAxis->coordToPixel(x(0, c->data().plotY())));
        const QString text = map->readoutAt(at);
        QVERIFY2(text.startsWith(QStringLiteral("row ")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("map here: log")), qPrintable(text));
    }

    void aNegativeMmdIsExplained()
    {
        MmdReadout m;
        m.bandwidth = 0.3;
        m.heldOutRows = 100;
        m.trainingRows = 400;
        MmdReadout::Entry e;
        e.estimator = "kde";
        e.heldOut.mmd2 = -0.0004;
        e.training.mmd2 = 0.002;
        m.entries.push_back(e);
        QVERIFY(CompareView::mmdParagraphOf(m).contains(QStringLiteral("below 0 is no error")));
        m.entries.front().heldOut.mmd2 = 0.0004;
        QVERIFY(!CompareView::mmdParagraphOf(m).contains(QStringLiteral("below 0")));
    }

    // Issue 38 (Orange's confusion matrix): with labels, the flags at the threshold are read
    // against them, with precision@k.
    void theFlagsAreReadAgainstTheLabels()
    {
        sosrep::Vector logValues(6);
        logValues << -9.0, -1.0, -8.0, -0.5, -7.0, -0.2; // the lowest three are the most anomalous
        Eigen::VectorXi labels(6);
        labels << 1, 0, 1, 0, 0, 1;
        // Threshold -5: rows 0, 2, 4 flagged; anomalies 0, 2, 5: TP 2, FP 1, FN 1, TN 2; the
        // top 3 rows (0, 2, 4) hold 2 anomalies: precision@3 = 0.667.
        const QString text = ScoresTab::confusionText(logValues, labels, -5.0);
        QVERIFY2(text.contains(QStringLiteral("3 flagged; TP 2, FP 1, FN 1, TN 2 (precision "
                                              "0.667, recall 0.667); precision@3")),
                 qPrintable(text));
        QVERIFY(text.endsWith(QStringLiteral("0.667")));

        MainWindow w;
        auto* c = w.session();
        c->generateToy(sosrep::ToyKind::TwoMoons, 300, 0);
        w.controllers().thresholds->setContamination(0.1);
        QSignalSpy ready(w.controllers().thresholds, &ThresholdController::ready);
        QVERIFY(fitAndWait(w.fits()));
        QVERIFY(w.controllers().thresholds->threshold() || ready.wait(30000));
        QTRY_VERIFY_WITH_TIMEOUT(
            w.views().scores->aucText().contains(QStringLiteral("At the threshold")), 10000);
        QVERIFY(w.views().scores->aucText().startsWith(QStringLiteral("AUC-ROC")));
        const QString expected =
            ScoresTab::confusionText(c->result()->rowLogDensity, *c->data().labels(),
                                     w.controllers().thresholds->threshold()->offset);
        QVERIFY2(w.views().scores->aucText().endsWith(expected),
                 qPrintable(w.views().scores->aucText()));
    }

    void generateSaysWhenItResetsTheLengthScale()
    {
        MainWindow w;
        auto* c = w.session();
        c->generateToy(sosrep::ToyKind::TwoMoons, 200, 0);
        QVERIFY(c->setOption("length_scale", "0.1"));
        QPushButton* generate = nullptr;
        for (QPushButton* b : w.findChildren<QPushButton*>()) {
            generate = b->text() == QStringLiteral("Generate") ? b : generate;
        }
        QVERIFY(generate);
        generate->click();
        QVERIFY2(w.statusBar()->currentMessage().contains(QStringLiteral("ℓ reset to auto")),
                 qPrintable(w.statusBar()->currentMessage()));
        QCOMPARE(c->settings().values.text("length_scale"), std::string("auto"));
    }

    void theGeneratorShowsAProjectsToy()
    {
        const QString project = m_dir.filePath(QStringLiteral("toy.sosrep.json"));
        {
            MainWindow w;
            w.session()->generateToy(sosrep::ToyKind::Rings, 321, 17);
            QCOMPARE(saveProject(project, w.projectFiles()->parts()), QString());
        }
        MainWindow w;
        QCOMPARE(w.projectFiles()->openProject(project), QString());
        QComboBox* kind = nullptr;
        for (QComboBox* b : w.findChildren<QComboBox*>()) {
            kind = b->findText(QStringLiteral("rings")) >= 0 ? b : kind;
        }
        QVERIFY(kind);
        QCOMPARE(kind->currentText(), QStringLiteral("rings"));
        QStringList spins;
        for (QSpinBox* s : w.findChildren<QSpinBox*>()) {
            spins << s->prefix() + QString::number(s->value());
        }
        QVERIFY2(spins.contains(QStringLiteral("n=321")), qPrintable(spins.join(',')));
        QVERIFY2(spins.contains(QStringLiteral("seed=17")), qPrintable(spins.join(',')));
    }

    // Issue 50: the hover read-out vanished after 0.8 s, replaced by the map's static tooltip,
    // and gave the nearest grid node's value (-8.906 where the model says -8.987).
    void theMapsReadoutStaysAtRestAndIsTheModelsValue()
    {
        MainWindow w;
        w.resize(1280, 720);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QFile::remove(m_dir.filePath(QStringLiteral("hover.csv")));
        QFile f(m_dir.filePath(QStringLiteral("hover.csv")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(clusterCsv(200));
        f.close();
        QVERIFY(w.openFile(f.fileName()));
        QVERIFY(fitAndWait(w.fits()));
        DensityHeatmap* map = w.views().density;
        map->replot();
        const FitJobResult* r = w.session()->result();
        // A point between grid nodes, away from the rows.
        const sosrep::GridSpec& g = r->grid.spec;
        const double x = 0.5 * (g.x(5) + g.x(6));
        const double y = 0.5 * (g.y(50) + g.y(51));
        const QPoint at(int(map->xAxis->coordToPixel(x)), int(map->yAxis->coordToPixel(y)));
        const double px = map->xAxis->pixelToCoord(at.x());
        const double py = map->yAxis->pixelToCoord(at.y());
        const QString readout = map->readoutAt(at);
        const double exact = sosrep::sliceLogValue(*r->fit.model, g, px, py);
        QVERIFY2(readout.contains(QStringLiteral("= %1 (the model here)").arg(exact, 0, 'g', 5)),
                 qPrintable(readout + QStringLiteral(" / ") + QString::number(exact)));
        // At rest Qt asks for the tooltip: the read-out is what it shows.
        QHelpEvent rest(QEvent::ToolTip, at, map->mapToGlobal(at));
        QApplication::sendEvent(map, &rest);
        QCOMPARE(QToolTip::text(), readout);
        // Off the map, the hint.
        const QPoint off(2, 2);
        QHelpEvent outside(QEvent::ToolTip, off, map->mapToGlobal(off));
        QApplication::sendEvent(map, &outside);
        QVERIFY(QToolTip::text().startsWith(QStringLiteral("Shift-drag to select rows")));
        // A map normalized on its grid says the value is the cell's.
        DensityHeatmap* first = w.views().compare->firstView();
        w.views().tabs->setCurrentWidget(w.views().compare);
        first->replot();
        const QPoint centre = first->axisRect()->rect().center();
        QVERIFY2(first->readoutAt(centre).contains(QStringLiteral("(grid cell)")),
                 qPrintable(first->readoutAt(centre)));
    }

    // Issue 50: after new data the map's axes kept the previous file's numbers (-3...3.9 on
    // shuttle's map) until the rows' scaling came: a scaler of other data is never used for
    // the axes, and new data clear the old one.
    void theMapsAxesNeverCarryAnotherDataSetsNumbers()
    {
        DensityHeatmap map;
        map.resize(600, 500);
        sosrep::Scaler other; // the previous file's: three columns around 1000
        other.kind = sosrep::ScalingKind::ZScore;
        other.shift = sosrep::Vector::Constant(3, 1000.0);
        other.scale = sosrep::Vector::Constant(3, 100.0);
        DensityHeatmap::RowInfo info;
        info.scaler = other;
        map.setRowInfo(info);
        sosrep::Matrix points(4, 2);
        points << 0.1, 0.2, 0.5, 0.9, 0.7, 0.4, 0.3, 0.6;
        sosrep::DensityGrid grid;
        grid.spec = sosrep::gridAroundData(points, 0, 1, 16);
        grid.logDensity = sosrep::Matrix::Zero(16, 16);
        DensityHeatmap::Content c;
        c.grid = &grid;
        c.points = points;
        c.contours = false;
        map.showContent(c);
        map.replot();
        const auto inScaledUnits = [&map] {
            for (const QString& l : map.xAxis->tickVectorLabels()) {
                if (std::abs(l.toDouble()) > 2.0) {
                    return false; // a number of the other data's units (~1000)
                }
            }
            return !map.xAxis->tickVectorLabels().isEmpty();
        };
        QVERIFY2(inScaledUnits(), qPrintable(map.xAxis->tickVectorLabels().join(' ')));
        // New data: the old rows' scaling goes with their map.
        info.scaler.shift.resize(2);
        info.scaler.scale.resize(2);
        info.scaler.shift.setConstant(1000.0);
        info.scaler.scale.setConstant(100.0);
        map.setRowInfo(info);
        map.replot();
        QVERIFY(!inScaledUnits()); // these rows' own scaling: their units
        map.clearContent(QStringLiteral("new data"));
        map.showContent(c);
        map.replot();
        QVERIFY(inScaledUnits());
    }

    // Issue 50: while a new file was fitted, the Scores table's header still named the last
    // file's units ("per unit of the 512 columns' product").
    void theScoresHeaderNamesTheLoadedDatasUnits()
    {
        QByteArray csv("a,b,c,d\n");
        for (int i = 0; i < 80; ++i) {
            csv += QByteArray::number(std::sin(i)) + ',' + QByteArray::number(std::cos(i * 1.3)) +
                   ',' + QByteArray::number(i % 7) + ',' + QByteArray::number(std::sin(i * 0.2)) +
                   '\n';
        }
        QFile wide(m_dir.filePath(QStringLiteral("wide.csv")));
        QVERIFY(wide.open(QIODevice::WriteOnly));
        wide.write(csv);
        wide.close();
        MainWindow w;
        QVERIFY(w.openFile(wide.fileName()));
        QVERIFY(fitAndWait(w.fits()));
        QFile f(m_dir.filePath(QStringLiteral("two.csv")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(clusterCsv(60).replace("a,b,c,label", "x,y,z,label"));
        f.close();
        QVERIFY(w.openFile(f.fileName()));
        auto* table = w.views().scores->findChild<QTableView*>(QStringLiteral("scoresTable"));
        QVERIFY(table);
        QStringList headers;
        for (int c = 0; c < table->model()->columnCount(); ++c) {
            headers << table->model()->headerData(c, Qt::Horizontal).toString();
        }
        const QString all = headers.join(QStringLiteral(" | "));
        QVERIFY2(all.contains(QStringLiteral("x × y × z")) &&
                     !all.contains(QStringLiteral("a × b")),
                 qPrintable(all));
    }

    // Issue 50: a slow fit's report ("Fitted in 19.60 s (model ..., comparison ...) (l = ...)")
    // ran on under the status bar's buttons at 1280x720. It is elided to the room left; the
    // whole of it is the report button's.
    void aSlowFitsReportFitsTheStatusLine()
    {
        MainWindow w;
        w.resize(1280, 720);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.session()->generateToy(sosrep::ToyKind::TwoMoons, 200, 1);
        QVERIFY(fitAndWait(w.fits()));
        FitJobResult slow;
        slow.seconds = 19.6;
        slow.stages = {{"model", 12.3},     {"optimizer runs", 3.1}, {"maps", 2.2},
                       {"row scores", 1.0}, {"comparison", 1.0},     {"clusters", 0.0}};
        slow.fit.lengthScale = 0.123456;
        slow.fitRows = w.session()->data().features().rows() - 50; // a seeded subsample
        w.status()->reportFit(slow);
        w.status()->addToReport(QStringLiteral("; the compare view followed in 41.5 s"), false);
        w.status()->addToReport(QStringLiteral("; the Scores view followed in 38.2 s"), true);
        QApplication::processEvents();
        const QString shown = w.statusBar()->currentMessage();
        auto* report = w.statusBar()->findChild<QToolButton*>(QStringLiteral("fitReportButton"));
        QVERIFY(report && report->isVisible());
        QVERIFY2(shown.endsWith(QChar(0x2026)), qPrintable(shown)); // elided: "…"
        QVERIFY(shown.startsWith(QStringLiteral("Fitted in 19.60 s")));
        QVERIFY2(w.statusBar()->fontMetrics().horizontalAdvance(shown) <= report->x(),
                 qPrintable(QStringLiteral("%1 px > %2")
                                .arg(w.statusBar()->fontMetrics().horizontalAdvance(shown))
                                .arg(report->x())));
        QVERIFY(report->toolTip().contains(QStringLiteral("the Scores view followed in 38.2 s")));
    }
};

QTEST_MAIN(TstViewTexts)
#include "tst_view_texts.moc"
