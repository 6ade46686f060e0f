// SPDX-License-Identifier: MIT
// The Optimizer view (issue 38): a cancelled run leaves no curves of the previous step size
// under the new toolbar values; a comparison too large to start by itself asks for Run; and an
// estimator without a solver or a kernel offers neither the Newton path nor many starts.
#include "ui/controller/fit_controller.h"
#include "ui/controller/session.h"
#include "ui/main_window.h"
#include "ui/plots/optimizer_view.h"
#include "ui/plots/trace_plot.h"

#include "support/gui_fixtures.h"

#include <QCheckBox>
#include <QLabel>
#include <QPushButton>
#include <QTabWidget>
#include <QtTest>

using namespace sosrep::ui;

namespace {

/// The comparison runs' last iteration (the largest row index of "natural").
int lastNaturalIteration(const FitController& fits)
{
    for (const sosrep::NamedTrace& t : fits.traces()) {
        if (t.run == "natural" && !t.rows.empty()) {
            return t.rows.back().iteration;
        }
    }
    return -1;
}

QPushButton* buttonOf(QWidget* view, const QString& text)
{
    for (QPushButton* b : view->findChildren<QPushButton*>()) {
        if (b->text() == text) {
            return b;
        }
    }
    return nullptr;
}

} // namespace

class TstOptimizerView : public QObject
{
    Q_OBJECT

private slots:
    void aCancelledRunDoesNotBringBackThePreviousOne()
    {
        MainWindow w;
        w.resize(1280, 720);
        auto* c = w.session();
        c->generateToy(sosrep::ToyKind::TwoMoons, 300, 0);
        SolverComparisonSettings s = c->solverComparison();
        s.iterations = 50;
        c->setSolverComparison(s);
        QVERIFY(fitAndWait(w.fits()));
        QCOMPARE(lastNaturalIteration(*w.fits()), 50); // the fit's comparison, 50 iterations
        // A long run at another step, cancelled after it has streamed some rows.
        s.learningRate = 1e-4;
        s.iterations = 200000;
        c->setSolverComparison(s);
        QSignalSpy done(w.fits(), &FitController::solverComparisonFinished);
        QVERIFY(w.fits()->rerunSolverComparison());
        QTRY_VERIFY_WITH_TIMEOUT(lastNaturalIteration(*w.fits()) > 50 || !c->isBusy(), 30000);
        c->cancel();
        QVERIFY(done.count() == 1 || done.wait(30000));
        QVERIFY(c->result()->solverRuns.empty());
        // What is drawn is the cancelled run's part (iterations beyond the old run's 50), not
        // the 50-iteration run of the previous step size.
        QVERIFY2(lastNaturalIteration(*w.fits()) != 50,
                 qPrintable(QString::number(lastNaturalIteration(*w.fits()))));
    }

    void aLargeComparisonAsksBeforeRunning()
    {
        MainWindow w;
        w.resize(1280, 720);
        w.show();
        auto* c = w.session();
        c->generateToy(sosrep::ToyKind::TwoMoons, 500, 0);
        SolverComparisonSettings s = c->solverComparison();
        s.eagerMaxCentres = 100;
        s.autoStartMaxEntries = 1e6; // 2 x 500 x 400^2 entries: "large" here
        c->setSolverComparison(s);
        w.views().tabs->setCurrentWidget(w.views().optimizer); // on screen while fitting
        QVERIFY(fitAndWait(w.fits()));
        QVERIFY(w.fits()->solverComparisonDeferred());
        QVERIFY(w.fits()->solverComparisonAsks());
        QVERIFY(!c->isBusy()); // not started without asking
        w.views().tabs->setCurrentIndex(0);
        w.views().tabs->setCurrentWidget(w.views().optimizer);
        QVERIFY(!c->isBusy());
        auto* note = w.views().optimizer->findChild<QLabel*>(QStringLiteral("deferredNote"));
        QVERIFY(note && !note->isHidden());
        QVERIFY2(note->text().contains(QStringLiteral("Press Run")), qPrintable(note->text()));
        // Run starts them.
        QSignalSpy done(w.fits(), &FitController::solverComparisonFinished);
        QPushButton* run = buttonOf(w.views().optimizer, QStringLiteral("Run"));
        QVERIFY(run && run->isEnabled());
        run->click();
        QVERIFY(done.wait(60000));
        QCOMPARE(int(c->result()->solverRuns.size()), 2);
    }

    void aDetectorOffersNoSolverControls()
    {
        MainWindow w;
        auto* c = w.session();
        c->generateToy(sosrep::ToyKind::TwoMoons, 300, 0);
        c->setEstimator("iforest");
        QVERIFY(fitAndWait(w.fits()));
        OptimizerView* view = w.views().optimizer;
        QVERIFY(!view->findChild<QCheckBox*>()->isEnabled()); // Newton
        QVERIFY(!buttonOf(view, QStringLiteral("Many starts…"))->isEnabled());
        QVERIFY(!buttonOf(view, QStringLiteral("Fig. 3 setting"))->isEnabled());
        c->setEstimator("sosrep");
        QVERIFY(fitAndWait(w.fits()));
        QVERIFY(view->findChild<QCheckBox*>()->isEnabled());
        QVERIFY(buttonOf(view, QStringLiteral("Many starts…"))->isEnabled());
    }
};

QTEST_MAIN(TstOptimizerView)
#include "tst_optimizer_view.moc"
