// SPDX-License-Identifier: MIT
// Per-class densities (issue 38, seaborn's hue=): one model per value of a column, as contours
// over the map and as curves in 1-D that add up to the whole; Esc stops the class fits.
#include "core/data/split.h"
#include "core/kernels/kernel_operator.h"
#include "ui/controller/fit_job.h"
#include "ui/controller/hue_controller.h"
#include "ui/controller/session.h"
#include "ui/main_window.h"
#include "ui/plots/density_curve_plot.h"
#include "ui/plots/density_heatmap.h"
#include "ui/plots/density_page.h"
#include "ui/project_file.h"
#include "ui/project_files.h"

#include "support/gui_fixtures.h"
#include "support/temp_files.h"

#include <QComboBox>
#include <QMenu>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QToolButton>
#include <QtTest>

#include <cmath>

#include <random>

using namespace sosrep::ui;

namespace {

/// The oracle of a class: the estimator fitted on the rows whose raw column `column` holds
/// `value`, alone, at `lengthScale` (0: by the settings' own rule).
std::shared_ptr<const sosrep::FittedModel> fitClassAlone(const Session* c, int column, double value,
                                                         double lengthScale)
{
    std::vector<Eigen::Index> rows;
    const sosrep::Dataset& raw = c->data().rawData();
    for (Eigen::Index i = 0; i < raw.x.rows(); ++i) {
        if (raw.x(i, column) == value) {
            rows.push_back(i);
        }
    }
    return fitAtLengthScale(sosrep::rowsOf(c->data().features(), rows), c->result()->settings,
                            "sosrep", lengthScale, {}, c->data().scaler());
}

} // namespace

class TstHue : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

private slots:
    void theMapGetsOneSetOfContoursPerClass()
    {
        MainWindow w;
        w.resize(1280, 720);
        auto* c = w.session();
        c->generateToy(sosrep::ToyKind::TwoMoons, 400, 0); // x, y, label (20 anomalies)
        QVERIFY(w.controllers().hue->candidates().contains(QStringLiteral("label")));
        QVERIFY(fitAndWait(w.fits()));
        QSignalSpy ready(w.controllers().hue, &HueController::ready);
        QComboBox* box = w.views().densityPage->hueChooser();
        box->setCurrentIndex(box->findData(QStringLiteral("label")));
        emit box->activated(box->currentIndex());
        QVERIFY(ready.wait(60000));
        const ClassDensities* hue = w.controllers().hue->classes();
        QVERIFY(hue);
        QCOMPARE(int(hue->classes.size()), 2);
        QCOMPARE(hue->classes[0].rows + hue->classes[1].rows, Eigen::Index(400));
        // The same kernel for every class: each class's model at the whole data's l.
        QCOMPARE(w.views().density->classNames(),
                 (QStringList{QStringLiteral("label = 0 (380 rows)"),
                              QStringLiteral("label = 1 (20 rows)")}));
        // Each class's map is the estimator fitted on that class's rows alone at the result's
        // l, on the result's grid: the same numbers as that fit made here.
        for (int k = 0; k < 2; ++k) {
            const auto model = fitClassAlone(c, 2, double(k), c->result()->lengthScale());
            const sosrep::DensityGrid want = evaluateGrid(*model, c->result()->grid.spec);
            QVERIFY(hue->classes[size_t(k)].grid.logDensity == want.logDensity);
        }
        // A refit keeps the hue and fits its classes again; none drops them.
        QSignalSpy again(w.controllers().hue, &HueController::ready);
        QVERIFY(fitAndWait(w.fits()));
        QVERIFY(again.count() == 1 || again.wait(60000));
        QCOMPARE(w.views().density->classNames().size(), 2);
        w.controllers().hue->setColumn(QString());
        QVERIFY(w.views().density->classNames().isEmpty());
    }

    void oneColumnGetsCurvesThatAddUpToTheWhole()
    {
        QByteArray csv = "value,label\n";
        std::mt19937 rng(2);
        std::normal_distribution<double> z;
        for (int i = 0; i < 300; ++i) {
            const bool second = i % 3 == 0;
            csv += QByteArray::number(second ? 3.0 + 0.6 * z(rng) : z(rng)) + ',' +
                   QByteArray(second ? "1" : "0") + '\n';
        }
        MainWindow w;
        w.resize(1280, 720);
        auto* c = w.session();
        w.openFile(writeTempFile(m_dir, QStringLiteral("one.csv"), csv));
        c->setEstimator("kde");
        QVERIFY(fitAndWait(w.fits()));
        QSignalSpy ready(w.controllers().hue, &HueController::ready);
        w.controllers().hue->setColumn(QStringLiteral("label"));
        QVERIFY(ready.wait(60000));
        auto* plot = qobject_cast<DensityCurvePlot*>(w.views().densityPage->currentPlot());
        QVERIFY(plot);
        const auto areas = plot->classAreas();
        QCOMPARE(areas.size(), 2);
        QCOMPARE(areas[0].first, QStringLiteral("label = 0 (200 rows)"));
        // common_norm: each class's area is its share of the rows (KDE: exactly a mixture).
        QVERIFY2(std::abs(areas[0].second - 2.0 / 3.0) < 0.02,
                 qPrintable(QString::number(areas[0].second)));
        QVERIFY2(std::abs(areas[1].second - 1.0 / 3.0) < 0.02,
                 qPrintable(QString::number(areas[1].second)));
    }

    void eachClassAtItsOwnLengthScaleAndEachCurveOfAreaOne()
    {
        // Issue 50: seaborn gives each group its own bandwidth and offers common_norm; the
        // classes here all had the whole data's ℓ, their curves always weighted by share.
        QByteArray csv = "value,label\n";
        std::mt19937 rng(5);
        std::normal_distribution<double> z;
        for (int i = 0; i < 300; ++i) {
            const bool second = i % 3 == 0; // a narrow class beside a wide one
            csv += QByteArray::number(second ? 4.0 + 0.2 * z(rng) : 1.5 * z(rng)) + ',' +
                   QByteArray(second ? "1" : "0") + '\n';
        }
        MainWindow w;
        w.resize(1280, 720);
        Session* c = w.session();
        w.openFile(writeTempFile(m_dir, QStringLiteral("own.csv"), csv));
        QVERIFY(fitAndWait(w.fits()));
        QSignalSpy ready(w.controllers().hue, &HueController::ready);
        w.controllers().hue->setOptions({true, true});
        w.controllers().hue->setColumn(QStringLiteral("label"));
        QVERIFY(ready.wait(60000));
        const ClassDensities* hue = w.controllers().hue->classes();
        QVERIFY(hue && hue->classes.size() == 2);
        const double pooled = c->result()->lengthScale();
        bool differs = false;
        for (int k = 0; k < 2; ++k) {
            // Oracle: the model's own rule on the class's rows alone.
            const auto model = fitClassAlone(c, 1, double(k), 0.0);
            const double own = model->kernel()->spec().lengthScale;
            QCOMPARE(hue->classes[size_t(k)].lengthScale, own);
            differs = differs || std::abs(own / pooled - 1.0) > 0.05;
        }
        QVERIFY2(differs, "no class's own ℓ differs from the pooled one");
        auto* plot = qobject_cast<DensityCurvePlot*>(w.views().densityPage->currentPlot());
        QVERIFY(plot);
        QVERIFY2(plot->classAreas()[0].first.contains(QStringLiteral("ℓ = ")),
                 qPrintable(plot->classAreas()[0].first));
        // common_norm off: no refit, each curve drawn with area 1 (the shares 2/3 and 1/3).
        QSignalSpy redrawn(w.controllers().hue, &HueController::ready);
        w.controllers().hue->setOptions({true, false});
        QCOMPARE(redrawn.count(), 1);
        QCOMPARE(w.controllers().hue->classes(), hue);
        for (const auto& [name, area] : plot->classAreas()) {
            QVERIFY2(std::abs(area - 1.0) < 0.03, qPrintable(name + ": " + QString::number(area)));
        }
        // The menu shows the options, and a project keeps them.
        QVERIFY(w.views().densityPage->hueOptionsButton()->isVisibleTo(w.views().densityPage));
        const QList<QAction*> actions =
            w.views().densityPage->hueOptionsButton()->menu()->actions();
        QVERIFY(actions[0]->isChecked() && !actions[1]->isChecked());
        const QString project = m_dir.filePath(QStringLiteral("own.sosrep.json"));
        QCOMPARE(saveProject(project, w.projectFiles()->parts()), QString());
        MainWindow w2;
        QCOMPARE(w2.projectFiles()->openProject(project), QString());
        QVERIFY(w2.controllers().hue->options() == (HueOptions{true, false}));
    }

    void escStopsTheClassFits()
    {
        MainWindow w;
        auto* c = w.session();
        c->generateToy(sosrep::ToyKind::TwoMoons, 4000, 0);
        QVERIFY(fitAndWait(w.fits()));
        QSignalSpy failed(w.controllers().hue, &HueController::failed);
        w.controllers().hue->setColumn(QStringLiteral("label"));
        c->cancel();
        QVERIFY(failed.wait(30000));
        QVERIFY(failed.first().first().toString().contains(QStringLiteral("cancelled")));
        QVERIFY(w.controllers().hue->classes() == nullptr);
    }

    void aProjectKeepsItsHue()
    {
        const QString project = m_dir.filePath(QStringLiteral("hue.sosrep.json"));
        {
            MainWindow w;
            auto* c = w.session();
            c->generateToy(sosrep::ToyKind::TwoMoons, 200, 0);
            w.controllers().hue->setColumn(QStringLiteral("label"));
            QCOMPARE(saveProject(project, w.projectFiles()->parts()), QString());
        }
        QFile f(project);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray text = f.readAll();
        f.close();
        QVERIFY(text.contains("\"hue\": \"label\""));
        MainWindow w;
        QCOMPARE(w.projectFiles()->openProject(project), QString());
        QCOMPARE(w.controllers().hue->column(), QStringLiteral("label"));
        QCOMPARE(w.views().densityPage->hueChooser()->currentData().toString(),
                 QStringLiteral("label"));
        // Its classes come with the next fit.
        QSignalSpy ready(w.controllers().hue, &HueController::ready);
        QVERIFY(fitAndWait(w.fits()));
        QVERIFY(ready.count() == 1 || ready.wait(30000));
        QCOMPARE(w.views().density->classNames().size(), 2);
        // A hue that is not a string is refused, naming the field.
        QByteArray bad = text;
        bad.replace("\"hue\": \"label\"", "\"hue\": 3");
        const QString badPath = writeTempFile(m_dir, QStringLiteral("bad.sosrep.json"), bad);
        MainWindow w2;
        QVERIFY(w2.projectFiles()->openProject(badPath).contains(QStringLiteral("app.hue")));
    }

    void aClassOfOneRowIsSaid()
    {
        // Issue 52: a class of one row got no density and no word.
        QTemporaryDir dir;
        QByteArray csv = "x,y,group\n";
        for (int i = 0; i < 120; ++i) {
            csv += QByteArray::number(std::sin(i * 0.7)) + ',' + QByteArray::number(std::cos(i)) +
                   ',' + (i == 50 ? "7" : QByteArray::number(i % 2)) + '\n';
        }
        const QString path = dir.filePath(QStringLiteral("groups.csv"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly) && f.write(csv) == csv.size());
        f.close();
        MainWindow w;
        QVERIFY(w.openFile(path));
        QVERIFY(w.controllers().hue->candidates().contains(QStringLiteral("group")));
        QVERIFY(fitAndWait(w.fits()));
        QSignalSpy ready(w.controllers().hue, &HueController::ready);
        w.controllers().hue->setColumn(QStringLiteral("group"));
        // group was a feature: it left them (issue 50), and the classes come with the next fit.
        QVERIFY(!w.session()->data().featureNames().contains(QStringLiteral("group")));
        QVERIFY(fitAndWait(w.fits()));
        QVERIFY(ready.count() > 0 || ready.wait(60000));
        QCOMPARE(int(w.controllers().hue->classes()->classes.size()), 2);
        QVERIFY2(w.views().densityPage->note().contains(
                     QStringLiteral("no density for group = 7 (one row)")),
                 qPrintable(w.views().densityPage->note()));
    }

    void aColumnOfManyValuesIsNoHue()
    {
        MainWindow w;
        auto* c = w.session();
        c->generateToy(sosrep::ToyKind::TwoMoons, 200, 0);
        QVERIFY(!w.controllers().hue->candidates().contains(QStringLiteral("x")));
        QVERIFY(fitAndWait(w.fits()));
        QSignalSpy failed(w.controllers().hue, &HueController::failed);
        w.controllers().hue->setColumn(QStringLiteral("x"));
        QVERIFY(failed.wait(30000));
        QVERIFY2(failed.first().first().toString().contains(QStringLiteral("more than 12")),
                 qPrintable(failed.first().first().toString()));
    }

    // Issue 50: `--hue group` kept group as a feature and fitted a 2-D density on (x, group),
    // two spiky stripes instead of two class curves. The hue's column leaves the features, and
    // the status line says so.
    void theHueColumnLeavesTheFeatures()
    {
        MainWindow w;
        QByteArray csv("x,group\n");
        for (int i = 0; i < 200; ++i) {
            const int g = i % 2;
            csv += QByteArray::number(std::sin(i * 0.7) + 3.0 * g, 'g', 10) + ',' +
                   QByteArray::number(g) + '\n';
        }
        QVERIFY(w.openFile(writeTempFile(m_dir, QStringLiteral("hue1.csv"), csv)));
        Session* c = w.session();
        QCOMPARE(c->data().featureNames(),
                 (QStringList{QStringLiteral("x"), QStringLiteral("group")}));
        w.controllers().hue->setColumn(QStringLiteral("group"));
        QCOMPARE(c->data().featureNames(), QStringList{QStringLiteral("x")});
        QCOMPARE(c->data().columnRoles().at(1), ColumnRole::Ignore);
        QVERIFY2(w.statusBar()->currentMessage().contains(QStringLiteral("left the features")),
                 qPrintable(w.statusBar()->currentMessage()));
        QSignalSpy ready(w.controllers().hue, &HueController::ready);
        QVERIFY(fitAndWait(w.fits()));
        QCOMPARE(c->resultInput().x.cols(), Eigen::Index(1)); // the density of x alone
        QVERIFY(ready.count() > 0 || ready.wait(30000));
        QVERIFY(w.controllers().hue->classes());
        QCOMPARE(int(w.controllers().hue->classes()->classes.size()), 2);
    }

    void aTextColumnOfFewValuesIsAHueNamedByItsTexts()
    {
        // Issue 50: seaborn's usual hue is a text column (iris's species), which the app took
        // as the row names and so refused as a hue. Read as categories: not a feature, its
        // role ignore, offered as a hue, its classes named by their texts.
        MainWindow w;
        QByteArray csv("x,y,species\n");
        const char* names[] = {"setosa", "versicolor", "virginica"};
        for (int i = 0; i < 150; ++i) {
            const int g = i % 3;
            csv += QByteArray::number(std::sin(i * 0.7) + 3.0 * g, 'g', 10) + ',' +
                   QByteArray::number(std::cos(i * 1.3), 'g', 10) + ',' + names[g] + '\n';
        }
        QVERIFY(w.openFile(writeTempFile(m_dir, QStringLiteral("iris.csv"), csv)));
        Session* c = w.session();
        QCOMPARE(c->data().featureNames(), (QStringList{QStringLiteral("x"), QStringLiteral("y")}));
        QCOMPARE(c->data().columnRoles().at(2), ColumnRole::Ignore);
        QVERIFY(c->data().rawData().rowNames.empty()); // not the row names
        QVERIFY(w.controllers().hue->candidates().contains(QStringLiteral("species")));
        QVERIFY2(c->data().loadNotes().join(' ').contains(QStringLiteral("3 categories")),
                 qPrintable(c->data().loadNotes().join(' ')));
        QVERIFY(fitAndWait(w.fits()));
        QSignalSpy ready(w.controllers().hue, &HueController::ready);
        w.controllers().hue->setColumn(QStringLiteral("species"));
        QCOMPARE(c->data().featureNames().size(), 2); // it was not a feature: no refit
        QVERIFY(ready.count() > 0 || ready.wait(30000));
        const ClassDensities* classes = w.controllers().hue->classes();
        QVERIFY(classes);
        QCOMPARE(int(classes->classes.size()), 3);
        QCOMPARE(classes->classes[0].name, std::string("setosa"));
        QCOMPARE(classes->classes[2].name, std::string("virginica"));
        QCOMPARE(classes->classes[1].rows, Eigen::Index(50));
        // The map's legend names each class by its text.
        QCPLegend* legend = w.views().density->legend;
        bool named = false;
        for (int i = 0; i < legend->itemCount(); ++i) {
            auto* item = qobject_cast<QCPPlottableLegendItem*>(legend->item(i));
            named = named || (item && item->plottable()->name().startsWith(
                                          QStringLiteral("species = versicolor (50 rows)")));
        }
        QVERIFY(named);
    }
};

QTEST_MAIN(TstHue)
#include "tst_hue.moc"
