// SPDX-License-Identifier: MIT
// Several models on the 1-D view's axis (issue 38): this model at other length scales and other
// estimators, each the curve of its own fit through the fit route (checked against fits made
// here), named in the legend, a density of area 1 over the data's range; data of two columns
// have no overlay (the button hides).
#include "core/grid/density_curve.h"
#include "core/kernels/kernel_operator.h"
#include "core/pipeline/fit_route.h"
#include "ui/controller/overlay_controller.h"
#include "ui/controller/session.h"
#include "ui/main_window.h"
#include "ui/plots/density_curve_plot.h"
#include "ui/plots/density_page.h"

#include "support/gui_fixtures.h"

#include <QTemporaryDir>
#include <QToolButton>
#include <QtTest>

using namespace sosrep;
using namespace sosrep::ui;

namespace {

/// The overlay's curve as the fit route gives it here: `estimator` with the result's settings,
/// at `lengthScale` (0: tuned as on its own).
Vector expectedCurve(Session* c, const std::string& estimator, double lengthScale)
{
    FitSettings s = c->result()->settings;
    if (estimator != s.estimator) {
        s.setEstimator(estimator);
    }
    if (lengthScale > 0.0) {
        s.fixLengthScale(lengthScale);
    }
    FitData data;
    data.train = c->data().features();
    data.scaler = c->data().scaler();
    data.source = "data";
    const FitOutcome f = fitModel(data, s);
    return evaluateCurve(*f.model, c->result()->curve.spec).logValues;
}

} // namespace

class TstOverlays : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

private slots:
    void overlaysAreTheirOwnFitsNamedInTheLegend()
    {
        MainWindow w;
        w.resize(1280, 720);
        w.show();
        auto* c = w.session();
        QString csv = QStringLiteral("minutes\n");
        for (int i = 0; i < 300; ++i) {
            csv += QString::number((i % 2 ? 60.0 : 20.0) + 8.0 * std::sin(i * 1.7), 'g', 10) +
                   QLatin1Char('\n');
        }
        const QString path = m_dir.filePath(QStringLiteral("one.csv"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(csv.toUtf8());
        f.close();
        QVERIFY(w.openFile(path));
        QVERIFY(fitAndWait(w.fits()));
        QVERIFY(w.views().densityPage->overlayButton()->isVisible());
        QSignalSpy ready(w.controllers().overlays, &OverlayController::ready);
        w.controllers().overlays->setSpecs({QStringLiteral("l*0.5"), QStringLiteral("kde")});
        while (w.controllers().overlays->overlays().empty()) {
            QVERIFY(ready.wait(60000));
        }
        QCOMPARE(int(w.controllers().overlays->overlays().size()), 2);
        const double l = c->result()->lengthScale();
        const Vector half = expectedCurve(c, "sosrep", 0.5 * l);
        const Vector kde = expectedCurve(c, "kde", 0.0);
        QVERIFY(
            (w.controllers().overlays->overlays()[0].curve.logValues - half).cwiseAbs().maxCoeff() <
            1e-12);
        QVERIFY(
            (w.controllers().overlays->overlays()[1].curve.logValues - kde).cwiseAbs().maxCoeff() <
            1e-12);
        QVERIFY2(w.controllers().overlays->overlays()[0].name.startsWith(
                     QStringLiteral("ℓ × 0.5 (ℓ = ")),
                 qPrintable(w.controllers().overlays->overlays()[0].name));
        QVERIFY2(
            w.controllers().overlays->overlays()[1].name.startsWith(QStringLiteral("kde (ℓ = ")),
            qPrintable(w.controllers().overlays->overlays()[1].name));
        DensityCurvePlot* plot = w.views().densityPage->curve();
        const QStringList legend = plot->legendNames();
        QVERIFY2(legend.contains(w.controllers().overlays->overlays()[0].name) &&
                     legend.contains(w.controllers().overlays->overlays()[1].name),
                 qPrintable(legend.join('|')));
        QVERIFY2(legend.first().startsWith(QStringLiteral("sosrep (ℓ = ")),
                 qPrintable(legend.join('|')));
        // Densities in the column's units: each overlay's area over the curve's range is 1.
        const auto areas = plot->classAreas();
        QCOMPARE(areas.size(), 2);
        for (const auto& [name, area] : areas) {
            QVERIFY2(std::abs(area - 1.0) < 0.02, qPrintable(name + QString::number(area)));
        }
        // None chosen: the model's curve alone again.
        w.controllers().overlays->setSpecs({});
        QVERIFY(plot->classAreas().isEmpty());
    }

    void dataOfTwoColumnsHaveNoOverlay()
    {
        MainWindow w;
        w.show();
        auto* c = w.session();
        c->generateToy(ToyKind::TwoMoons, 200, 0);
        QVERIFY(fitAndWait(w.fits()));
        QVERIFY(!w.views().densityPage->overlayButton()->isVisible());
        w.controllers().overlays->setSpecs({QStringLiteral("l*2")});
        QTest::qWait(200);
        QVERIFY(w.controllers().overlays->overlays().empty());
    }
};

QTEST_MAIN(TstOverlays)
#include "tst_overlays.moc"
