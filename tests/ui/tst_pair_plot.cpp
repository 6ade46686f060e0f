// SPDX-License-Identifier: MIT
// The pair plot (issue 38, seaborn's pairplot): every pair's map below the diagonal, each
// column's marginal on it, drawn panel by panel as a worker computes them; Esc stops it.
#include "ui/controller/estimation_controller.h"
#include "ui/controller/pair_plot_controller.h"
#include "ui/main_window.h"
#include "ui/plots/density_page.h"
#include "ui/plots/pair_plot.h"

#include "support/gui_fixtures.h"
#include "support/temp_files.h"

#include <QComboBox>
#include <QTemporaryDir>
#include <QtTest>

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
        auto* c = w.controller();
        w.openFile(writeTempFile(m_dir, QStringLiteral("four.csv"), columnsCsv(4, 300)));
        QVERIFY(fitAndWait(c));
        QComboBox* show = w.densityPage()->chooser();
        const int entry = show->findData(DensityPage::kPairPlot);
        QVERIFY(entry >= 0);
        QSignalSpy panels(w.pairPlot(), &PairPlotController::panelReady);
        QSignalSpy done(w.pairPlot(), &PairPlotController::finished);
        show->setCurrentIndex(entry);
        emit show->activated(entry);
        QVERIFY(done.wait(60000));
        PairPlot* plot = w.densityPage()->pairs();
        QCOMPARE(w.densityPage()->currentPlot(), static_cast<QWidget*>(plot));
        QCOMPARE(plot->panelCount(), 10); // 4 diagonals + 6 pairs
        QCOMPARE(panels.count(), 10);     // each handed over as it was done
        QCOMPARE(plot->panelsDrawn(), 10);
        // The pairs below the diagonal first, row by row, then the diagonals.
        const auto& got = w.pairPlot()->panels();
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
        QSignalSpy again(w.pairPlot(), &PairPlotController::panelReady);
        w.showPairPlotView();
        QCOMPARE(again.count(), 0);
        QCOMPARE(plot->panelsDrawn(), 10);
    }

    void escStopsItAndChoosingItAgainGoesOn()
    {
        MainWindow w;
        auto* c = w.controller();
        w.openFile(writeTempFile(m_dir, QStringLiteral("six.csv"), columnsCsv(6, 3000)));
        QVERIFY(fitAndWait(c));
        QSignalSpy cancelled(w.pairPlot(), &PairPlotController::cancelled);
        connect(w.pairPlot(), &PairPlotController::panelReady, c, [c](int index) {
            if (index == 1) {
                c->cancel(); // Esc after the second panel
            }
        });
        w.showPairPlotView();
        QVERIFY(cancelled.wait(60000));
        QVERIFY(w.pairPlot()->panels().size() < 21);
        QVERIFY(!w.pairPlot()->complete());
        QObject::disconnect(w.pairPlot(), &PairPlotController::panelReady, c, nullptr);
        QSignalSpy done(w.pairPlot(), &PairPlotController::finished);
        w.showPairPlotView();
        QVERIFY(done.wait(60000));
        QCOMPARE(int(w.pairPlot()->panels().size()), 21);
        QCOMPARE(w.densityPage()->pairs()->panelsDrawn(), 21);
    }
};

QTEST_MAIN(TstPairPlot)
#include "tst_pair_plot.moc"
