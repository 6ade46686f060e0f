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
