// SPDX-License-Identifier: MIT
// Several models on the Scores view's ROC panel and a cut-off chosen on it (issue 38): the
// other estimators' curves are those of their own fits through the fit route (checked against
// fits made here), named with their AUCs; a click on the curve flags the rows above the cut-off
// of the nearest point, which the table, the bar and the confusion counts then read.
#include "core/data/preparation.h"
#include "core/metrics/auc.h"
#include "core/pipeline/fit_route.h"
#include "ui/controller/other_roc_controller.h"
#include "ui/controller/session.h"
#include "ui/controller/threshold_controller.h"
#include "ui/main_window.h"
#include "ui/plots/score_plots.h"
#include "ui/scores_tab.h"

#include "support/gui_fixtures.h"

#include <QFile>
#include <QLabel>
#include <QMenu>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QToolButton>
#include <QtTest>

using namespace sosrep;
using namespace sosrep::ui;

class TstRocOverlay : public QObject
{
    Q_OBJECT

private slots:
    void otherEstimatorsCurvesAreTheirOwnFits()
    {
        MainWindow w;
        auto* c = w.session();
        c->generateToy(ToyKind::TwoMoons, 400, 2);
        QVERIFY(fitAndWait(w.fits()));
        QSignalSpy ready(w.controllers().otherRocs, &OtherRocController::ready);
        w.controllers().otherRocs->setEstimators(
            {QStringLiteral("kde"), QStringLiteral("iforest")});
        QVERIFY(ready.wait(60000));
        while (w.controllers().otherRocs->curves().empty()) { // the first signal dropped the old
                                                              // curves
            QVERIFY(ready.wait(60000));
        }
        QCOMPARE(int(w.controllers().otherRocs->curves().size()), 2);
        const Eigen::VectorXi labels = *c->data().labels();
        QStringList expected{QStringLiteral("sosrep: AUC-ROC %1")
                                 .arg(aucRoc(-c->result()->rowLogDensity, labels), 0, 'f', 4)};
        for (const auto& other : w.controllers().otherRocs->curves()) {
            // The same rows and settings, the estimator switched, for the anomaly purpose.
            FitSettings s = c->result()->settings;
            s.setEstimator(other.estimator.toStdString());
            if (s.values.has("purpose")) {
                s.values.set("purpose", "anomaly");
            }
            FitData data;
            data.train = c->data().features();
            data.scaler = c->data().scaler();
            data.source = "data";
            const FitOutcome f = fitModel(data, s);
            const Vector want = -f.model->logValues(data.train).values;
            QCOMPARE(other.anomalyScores.size(), want.size());
            QVERIFY((other.anomalyScores - want).cwiseAbs().maxCoeff() < 1e-12);
            expected << QStringLiteral("%1: AUC-ROC %2")
                            .arg(other.estimator)
                            .arg(aucRoc(want, labels), 0, 'f', 4);
        }
        QCOMPARE(w.views().scores->plots()->rocCurveCount(), 3);
        QCOMPARE(w.views().scores->plots()->rocLegendNames(), expected);
        // None chosen: this model's curve alone, no legend.
        w.controllers().otherRocs->setEstimators({});
        QCOMPARE(w.views().scores->plots()->rocCurveCount(), 1);
        QVERIFY(w.views().scores->plots()->rocLegendNames().isEmpty());
    }

    // scale=auto: each other estimator is scaled as its anomaly purpose scales it. On columns
    // that are mostly 0 with a sparse tail a kernel density ranks rank-scaled rows, and kNN,
    // which has no purpose, min-max-scaled ones (the density view's).
    void otherEstimatorsAreScaledAsTheirPurposeScales()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("spikes.csv"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        QByteArray csv = "a,b,c,label\n";
        for (int i = 0; i < 240; ++i) {
            const bool anomaly = i % 20 == 0;
            for (int j = 0; j < 3; ++j) {
                const double u = std::fmod((i + 1) * (0.6180339887 + 0.1 * j), 1.0);
                const bool on = anomaly || (i + j) % 3 == 0;
                csv += QByteArray::number(on ? (anomaly ? 5.0 : 0.0) + 1.0 / (0.05 + u) : 0.0, 'g',
                                          12) +
                       ',';
            }
            csv += anomaly ? "1\n" : "0\n";
        }
        f.write(csv);
        f.close();
        MainWindow w;
        auto* c = w.session();
        QVERIFY(w.openFile(path));
        QVERIFY(c->data().labels().has_value());
        QVERIFY(fitAndWait(w.fits()));
        QVERIFY(c->result()->scoresScaler.has_value()); // the Scores view's own: rank
        QSignalSpy ready(w.controllers().otherRocs, &OtherRocController::ready);
        w.controllers().otherRocs->setEstimators({QStringLiteral("kde"), QStringLiteral("knn")});
        while (w.controllers().otherRocs->curves().size() < 2) {
            QVERIFY(ready.wait(60000));
        }
        for (const auto& other : w.controllers().otherRocs->curves()) {
            FitSettings s = c->result()->settings;
            s.setEstimator(other.estimator.toStdString());
            const bool kernel = s.values.has("purpose");
            if (kernel) {
                s.values.set("purpose", "anomaly");
            }
            const PreparedTraining p = prepareTraining(
                c->data().featureData(), kernel ? ScalingKind::Rank : ScalingKind::MinMax);
            FitData data;
            data.train = p.x;
            data.scaler = p.scaler;
            data.source = "data";
            const FitOutcome fit = fitModel(data, s);
            const Vector want = -fit.model->logValues(data.train).values;
            QCOMPARE(other.anomalyScores.size(), want.size());
            QVERIFY2((other.anomalyScores - want).cwiseAbs().maxCoeff() < 1e-12,
                     qPrintable(other.estimator));
        }
    }

    void aClickOnTheCurveChoosesTheCutOffOfItsNearestPoint()
    {
        MainWindow w;
        w.resize(1280, 720);
        w.show();
        auto* c = w.session();
        c->generateToy(ToyKind::TwoMoons, 400, 2);
        QVERIFY(fitAndWait(w.fits()));
        w.views().tabs->setCurrentIndex(3);
        QCoreApplication::processEvents();
        ScorePlots* plots = w.views().scores->plots();
        plots->replot();
        const Vector scores = -c->result()->rowLogDensity;
        const Eigen::VectorXi labels = *c->data().labels();
        // The oracle: the point of flagging the 30 highest scores.
        std::vector<double> sorted(scores.data(), scores.data() + scores.size());
        std::sort(sorted.rbegin(), sorted.rend());
        const double cut = 0.5 * (sorted[29] + sorted[30]);
        const QPointF p = *plots->rocPointOf(cut);
        const double chosen = *plots->cutoffNear(p.x(), p.y());
        QCOMPARE(*plots->rocPointOf(chosen), p);
        // Through the panel: a click at that point's pixel.
        QCPAxisRect* rect = plots->axisRect(1);
        QVERIFY(rect);
        const QPoint pixel(int(std::lround(rect->axis(QCPAxis::atBottom)->coordToPixel(p.x()))),
                           int(std::lround(rect->axis(QCPAxis::atLeft)->coordToPixel(p.y()))));
        QSignalSpy thresholds(w.controllers().thresholds, &ThresholdController::ready);
        QTest::mouseClick(plots, Qt::LeftButton, Qt::NoModifier, pixel);
        QVERIFY(thresholds.count() > 0 || thresholds.wait(2000));
        QVERIFY(w.controllers().thresholds->threshold());
        QCOMPARE(w.controllers().thresholds->threshold()->method,
                 std::string("chosen on the ROC curve"));
        const double offset =
            w.controllers().thresholds->threshold()->offset; // flagged: log value below it
        QCOMPARE(*plots->rocPointOf(-offset), p); // the clicked point (one pixel is finer)
        const Eigen::Index flagged = (scores.array() > -offset).count();
        // The views read it: the bar, the table's flag column, the counts against the labels.
        const auto* bar = w.findChild<QLabel*>(QStringLiteral("outlierState"));
        QVERIFY2(bar->text().contains(QStringLiteral("%1 of 400 rows flagged").arg(flagged)) &&
                     bar->text().contains(QStringLiteral("chosen on the ROC curve")),
                 qPrintable(bar->text()));
        const QAbstractItemModel* m =
            w.findChild<QTableView*>(QStringLiteral("scoresTable"))->model();
        int outlierColumn = -1;
        for (int k = 0; k < m->columnCount(); ++k) {
            outlierColumn =
                m->headerData(k, Qt::Horizontal).toString() == "outlier" ? k : outlierColumn;
        }
        QVERIFY(outlierColumn >= 0);
        int ones = 0;
        for (int r = 0; r < m->rowCount(); ++r) {
            ones += m->index(r, outlierColumn).data().toInt();
        }
        QCOMPARE(Eigen::Index(ones), flagged);
        const double tp = double(((scores.array() > -offset) && (labels.array() == 1)).count());
        QCOMPARE(tp / double(labels.sum()), p.y());
        bool counted = false;
        for (const QLabel* l : w.findChildren<QLabel*>()) {
            counted =
                counted || l->text().contains(QStringLiteral("At the threshold: %1 flagged; TP %2,")
                                                  .arg(flagged)
                                                  .arg(int(tp)));
        }
        QVERIFY(counted);
        // A share replaces it.
        w.controllers().thresholds->setContamination(0.1);
        QVERIFY(!w.controllers().thresholds->threshold() ||
                w.controllers().thresholds->threshold()->method != "chosen on the ROC curve");
    }

    // Issue 50: the ROC of... choices carried over to every later data set, each fitted again
    // silently (128 s on shuttle). Other data clear them and say so; new roles keep them.
    void theRocChoiceIsClearedForOtherDataAndSaysSo()
    {
        MainWindow w;
        OtherRocController* rocs = w.controllers().otherRocs;
        w.session()->generateToy(ToyKind::TwoMoons, 300, 2);
        QVERIFY(fitAndWait(w.fits()));
        rocs->setEstimators({QStringLiteral("kde")});
        QVERIFY(w.session()->setColumnRoles(w.session()->data().columnRoles()));
        QCOMPARE(rocs->estimators(), QStringList{QStringLiteral("kde")});
        QSignalSpy cleared(rocs, &OtherRocController::choiceCleared);
        w.session()->generateToy(ToyKind::TwoMoons, 300, 3);
        QVERIFY(rocs->estimators().isEmpty());
        QVERIFY(rocs->curves().empty());
        QCOMPARE(cleared.count(), 1);
        QCOMPARE(cleared.first().first().toStringList(), QStringList{QStringLiteral("kde")});
        auto* button = w.findChild<QToolButton*>(QStringLiteral("rocWith"));
        QVERIFY(button && button->menu());
        for (const QAction* a : button->menu()->actions()) {
            QVERIFY2(!a->isChecked(), qPrintable(a->text()));
        }
        QVERIFY2(
            w.statusBar()->currentMessage().contains(QStringLiteral("cleared for the new data")),
            qPrintable(w.statusBar()->currentMessage()));
    }
};

QTEST_MAIN(TstRocOverlay)
#include "tst_roc_overlay.moc"
