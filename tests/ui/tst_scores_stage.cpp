// SPDX-License-Identifier: MIT
// The Scores view's stage after a large fit (issue 38): it shows a percentage, Esc stops it
// within a block of rows, and the views then say the rows were not scored; the ROC panel never
// claims the labels are missing while they were not looked at.
#include "ui/controller/session.h"
#include "ui/main_window.h"
#include "ui/plots/score_plots.h"
#include "ui/scores_tab.h"

#include "support/gui_fixtures.h"

#include <QElapsedTimer>
#include <QProgressBar>
#include <QPushButton>
#include <QStatusBar>
#include <QtTest>

using namespace sosrep::ui;

class TstScoresStage : public QObject
{
    Q_OBJECT

private slots:
    void theScoresStageShowsProgressAndEscStopsIt()
    {
        MainWindow w;
        w.resize(1280, 720);
        auto* c = w.session();
        w.fits()->setEagerStagesMaxRows(100);
        c->generateToy(sosrep::ToyKind::TwoMoons, 60000, 2); // labelled: both classes
        c->setEstimator("kde");
        QVERIFY(c->setOption("length_scale", "0.05")); // no sweep: the stage is the scoring
        QSignalSpy finished(c, &Session::fitFinished);
        QSignalSpy scored(c, &Session::scoresReady);
        QPushButton* cancelButton = nullptr;
        for (QPushButton* b : w.findChildren<QPushButton*>()) {
            cancelButton = b->text() == QStringLiteral("Cancel (Esc)") ? b : cancelButton;
        }
        QVERIFY(cancelButton);
        QProgressBar* bar = nullptr;
        bool barShown = false;
        bool cancelEnabled = false;
        // The stage reports "scoring rows" as done of rows.
        QList<QPair<int, int>> steps;
        QElapsedTimer sinceCancel;
        connect(w.fits(), &FitController::progressChanged, this,
                [&](const QString& stage, int done, int total) {
                    if (stage == QLatin1String("scoring rows")) {
                        steps << qMakePair(done, total);
                        if (done > 0 && !sinceCancel.isValid()) {
                            // The stage runs after the fit: the bar shows it and Cancel stops
                            // it (issue 50: the button was greyed out, the bar hidden).
                            bar = bar ? bar : w.statusBar()->findChild<QProgressBar*>();
                            barShown = bar && bar->isVisibleTo(&w);
                            cancelEnabled = cancelButton->isEnabled();
                            sinceCancel.start();
                            cancelButton->click(); // after the first block
                        }
                    }
                });
        w.fits()->fit();
        QVERIFY(finished.wait(120000));
        QVERIFY(c->result()->scoresDeferred);
        QVERIFY2(w.views().scores->plots()->rocTitle() == QStringLiteral("ROC: no row scores yet"),
                 qPrintable(w.views().scores->plots()->rocTitle()));
        QVERIFY(scored.count() == 1 || scored.wait(120000));
        QVERIFY(sinceCancel.isValid());
        QVERIFY(barShown);
        QVERIFY(cancelEnabled);
        QVERIFY2(sinceCancel.elapsed() < 2000, qPrintable(QString::number(sinceCancel.elapsed())));
        QVERIFY(!steps.isEmpty());
        QCOMPARE(steps.first().second, 60000); // out of the rows: a percentage
        QVERIFY(steps.last().first < 60000);   // stopped before the end
        const FitJobResult* r = c->result();
        QVERIFY(r->scoresCancelled);
        QVERIFY(!r->scoresReady());
        QVERIFY2(w.views().scores->aucText().contains(QStringLiteral("cancelled")),
                 qPrintable(w.views().scores->aucText()));
        QVERIFY(!w.views().scores->plots()->rocTitle().contains(QStringLiteral("labels")));
        // A new fit scores them again, in full.
        QObject::disconnect(w.fits(), &FitController::progressChanged, this, nullptr);
        QSignalSpy again(c, &Session::scoresReady);
        w.fits()->fit();
        QVERIFY(again.wait(120000));
        QVERIFY(c->result()->scoresReady());
        QVERIFY(!c->result()->scoresCancelled);
        QVERIFY(w.views().scores->plots()->rocTitle().startsWith(QStringLiteral("ROC: AUC-ROC")));
    }
};

QTEST_MAIN(TstScoresStage)
#include "tst_scores_stage.moc"
