// SPDX-License-Identifier: MIT
// Tests of the window's files: projects saved and opened with every parameter, their names.
#include "ui/controller/cluster_controller.h"
#include "ui/controller/negativity_job.h"
#include "ui/controller/other_roc_controller.h"
#include "ui/controller/ratio_controller.h"
#include "ui/controller/session.h"
#include "ui/controller/settings_history.h"
#include "ui/controller/threshold_controller.h"
#include "ui/density_tab.h"
#include "ui/exporter.h"
#include "ui/main_window.h"
#include "ui/panels/option_editor.h"
#include "ui/plots/compare_view.h"
#include "ui/plots/density_heatmap.h"
#include "ui/plots/optimizer_view.h"
#include "ui/plots/ratio_plot.h"
#include "ui/plots/ratio_view.h"
#include "ui/plots/trace_plot.h"
#include "ui/project_file.h"
#include "ui/project_files.h"
#include "ui/scores_tab.h"

#include "core/metrics/auc.h"
#include "support/gui_fixtures.h"
#include "support/shared_data.h"
#include "support/temp_files.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QSpinBox>
#include <QStatusBar>
#include <QToolButton>
#include <QUndoStack>
#include <QXmlStreamReader>
#include <QtTest>

using namespace sosrep::ui;

class TstProjectFiles : public QObject
{
    Q_OBJECT

private:
    ScratchDir m_dir;

private slots:
    void initTestCase()
    {
        m_dir.isolateSettings(); // not the user's own window state and recent files
    }

    void aProjectTypedWithItsShortSuffixIsNotSuffixedTwice()
    {
        // Regression (issue 50): "Save project as p1.sosrep" wrote p1.sosrep.sosrep.json.
        QCOMPARE(projectPathFor(QStringLiteral("/d/p1.sosrep")),
                 QStringLiteral("/d/p1.sosrep.json"));
        QCOMPARE(projectPathFor(QStringLiteral("/d/p1")), QStringLiteral("/d/p1.sosrep.json"));
        QCOMPARE(projectPathFor(QStringLiteral("/d/p1.sosrep.json")),
                 QStringLiteral("/d/p1.sosrep.json"));
        QCOMPARE(projectPathFor(QStringLiteral("/d/P1.JSON")), QStringLiteral("/d/P1.JSON"));
        QCOMPARE(projectPathFor(QStringLiteral("/d/run.2")),
                 QStringLiteral("/d/run.2.sosrep.json"));
    }

    void projectRoundTripsEveryParameter_data()
    {
        QTest::addColumn<QString>("estimator");
        QTest::newRow("sosrep") << "sosrep";
        QTest::newRow("kde") << "kde";
    }

    void projectRoundTripsEveryParameter()
    {
        QFETCH(QString, estimator);
        const QString data = m_dir.write("project_data.csv", clusterCsv(120));
        const QString project = m_dir.filePath(QStringLiteral("session.sosrep.json"));
        sosrep::FitSettings s = sosrep::FitSettings::defaults(estimator.toStdString());
        // Every option off its default.
        s.values.set("kernel", "sdo");
        s.values.set("length_scale", "0.123");
        s.values.set("selection", "paper");
        s.values.set("sdo_order", "3");
        s.values.set("features", "777");
        s.values.set("sdo_method", "exact");
        s.values.set("seed", "18446744073709551557"); // needs all 64 bits
        s.values.set("scale", "zscore");
        s.values.set("grid", "9");
        s.values.set("fd_estimator", "finite-difference");
        s.values.set("fd_duplicates", "exclude");
        s.values.set("purpose", "anomaly");
        s.values.set("reach_neighbours", "9");
        s.values.set("backend", "dense");
        s.values.set("rank", "321");
        if (estimator == QLatin1String("sosrep")) {
            s.values.set("solver", "standard");
            s.values.set("learning_rate", "0.0321");
            s.values.set("iterations", "4321");
            s.values.set("tolerance", "1e-7");
        }
        const QVector<ColumnRole> roles = {ColumnRole::Feature, ColumnRole::Ignore,
                                           ColumnRole::Feature, ColumnRole::Label};
        {
            MainWindow w;
            w.openFile(data);
            w.session()->setSettings(s);
            QVERIFY(w.session()->setColumnRoles(roles));
            w.session()->setPlotColumns(1, 0);
            SolverComparisonSettings runs = w.session()->solverComparison();
            runs.learningRate = 0.0123;
            runs.iterations = 1234;
            w.session()->setSolverComparison(runs);
            w.controllers().thresholds->setContamination(0.07);
            QCOMPARE(saveProject(project, w.projectFiles()->parts()), QString());
        }
        MainWindow w2;
        QCOMPARE(w2.projectFiles()->openProject(project), QString());
        QVERIFY(w2.session()->settings() == s);
        QVERIFY(w2.session()->settings().values.all() == s.values.all());
        QCOMPARE(w2.session()->data().columnRoles(), roles);
        QCOMPARE(w2.session()->data().plotX(), 1);
        QCOMPARE(w2.session()->data().plotY(), 0);
        QCOMPARE(w2.session()->solverComparison().learningRate, 0.0123);
        QCOMPARE(w2.session()->solverComparison().iterations, 1234);
        QCOMPARE(w2.controllers().thresholds->contamination(), 0.07);
        auto* percent = w2.findChild<QDoubleSpinBox*>(QStringLiteral("contaminationPercent"));
        QVERIFY(percent && percent->isEnabled());
        QCOMPARE(percent->value(), 7.0); // the Scores view's box shows the project's share
        QCOMPARE(w2.session()->data().dataSource(), QFileInfo(data).absoluteFilePath());
        QCOMPARE(w2.session()->data().features().cols(), Eigen::Index(2));
        QVERIFY(std::abs(w2.session()->data().features().col(0).mean()) < 1e-12); // z-scored

        // The data changed since saving: the session opens, with a warning naming the file.
        m_dir.write("project_data.csv", clusterCsv(130));
        MainWindow w3;
        QCOMPARE(w3.projectFiles()->openProject(project), QString());
        QVERIFY(w3.lastError().contains(QStringLiteral("has changed since the project was saved")));
        QCOMPARE(int(w3.session()->data().rawData().rows()), 130);

        // A broken project changes nothing.
        const QString broken =
            m_dir.write("broken.sosrep.json", "{\"format\": \"sosrep-studio-project\", ");
        QVERIFY(w3.projectFiles()->openProject(broken).contains(QStringLiteral("invalid JSON")));
        QCOMPARE(int(w3.session()->data().rawData().rows()), 130);
        // So does an outlier share out of (0, 0.5] or an optimizer step out of the view's range,
        // each named by its field.
        QFile saved(project);
        QVERIFY(saved.open(QIODevice::ReadOnly));
        const QByteArray text = saved.readAll();
        const auto refused = [&](const char* from, const char* to, const QString& field) {
            QByteArray t = text;
            QVERIFY(t.contains(from));
            t.replace(from, to);
            const QString bad = m_dir.write(field + QStringLiteral(".sosrep.json"), t);
            QVERIFY(w3.projectFiles()->openProject(bad).contains(field));
            QCOMPARE(int(w3.session()->data().rawData().rows()), 130);
        };
        refused("\"contamination\": 0.07", "\"contamination\": 0.7",
                QStringLiteral("app.contamination"));
        refused("\"optimizer_step\": 0.0123", "\"optimizer_step\": -1",
                QStringLiteral("app.optimizer_step"));
    }

    void projectStoresToyGeneratorInsteadOfPath()
    {
        const QString project = m_dir.filePath(QStringLiteral("toy.sosrep.json"));
        {
            MainWindow w;
            w.session()->generateToy(sosrep::ToyKind::Rings, 321, 9);
            QCOMPARE(saveProject(project, w.projectFiles()->parts()), QString());
        }
        MainWindow w2;
        QCOMPARE(w2.projectFiles()->openProject(project), QString());
        QVERIFY(w2.session()->data().toyConfig().has_value());
        QCOMPARE(w2.session()->data().toyConfig()->n, 321);
        QCOMPARE(int(w2.session()->data().toyConfig()->seed), 9);
        QCOMPARE(int(w2.session()->data().rawData().rows()), 321);
    }

    // Issue 50: projects did not keep the map's colours, the joint plot or the ROC of other
    // estimators; a project reopens to the same views.
    void aProjectKeepsTheMapsColoursTheJointPlotAndTheRocChoice()
    {
        const QString data = m_dir.write("views.csv", clusterCsv(150));
        const QString project = m_dir.filePath(QStringLiteral("views.sosrep.json"));
        {
            MainWindow w;
            QVERIFY(w.openFile(data));
            w.views().densityTab->setMapScale(MapScale::Proportion);
            w.views().densityTab->setJoint(true);
            w.controllers().otherRocs->setEstimators({QStringLiteral("kde")});
            QCOMPARE(w.projectFiles()->saveTo(project), QString());
        }
        MainWindow w2;
        QCOMPARE(w2.projectFiles()->openProject(project), QString());
        QCOMPARE(w2.views().densityTab->mapScale(), MapScale::Proportion);
        QVERIFY(w2.views().densityTab->joint());
        QCOMPARE(w2.controllers().otherRocs->estimators(), QStringList{QStringLiteral("kde")});
        QStringList checked; // the View menu says what is shown
        for (QAction* menu : w2.menuBar()->actions()) {
            for (QAction* a : menu->menu() ? menu->menu()->actions() : QList<QAction*>()) {
                for (QAction* b : a->menu() ? a->menu()->actions() : QList<QAction*>{a}) {
                    if (b->isCheckable() && b->isChecked()) {
                        checked << b->text().remove(QLatin1Char('&'));
                    }
                }
            }
        }
        QVERIFY2(checked.join(' ').contains(QStringLiteral("Iso-proportion")) &&
                     checked.join(' ').contains(QStringLiteral("Joint plot")),
                 qPrintable(checked.join(QStringLiteral(" | "))));
        // A colouring the app does not have is refused, named by its field.
        QFile saved(project);
        QVERIFY(saved.open(QIODevice::ReadOnly));
        QByteArray text = saved.readAll();
        QVERIFY(text.contains("\"map_colours\": \"proportion\""));
        text.replace("\"map_colours\": \"proportion\"", "\"map_colours\": \"rainbow\"");
        const QString bad = m_dir.write("bad_colours.sosrep.json", text);
        QVERIFY(w2.projectFiles()->openProject(bad).contains(QStringLiteral("app.map_colours")));
    }
};

QTEST_MAIN(TstProjectFiles)
#include "tst_project_files.moc"
