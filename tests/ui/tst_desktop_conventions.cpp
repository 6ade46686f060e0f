// SPDX-License-Identifier: MIT
// The desktop conventions a user expects of the main window (issue 12): the file and a modified
// mark in the title, undo and redo of settings and roles, asking to save on quit, projects in
// Open recent, label columns found by their usual names, Help ▸ About with versions, and our
// shortcuts working while an editor has the focus.
#include "ui/controller/fit_controller.h"
#include "ui/controller/session.h"
#include "ui/controller/settings_history.h"
#include "ui/main_window.h"
#include "ui/plots/density_heatmap.h"
#include "ui/plots/density_page.h"
#include "ui/project_files.h"
#include "ui/scores_tab.h"

#include <QCheckBox>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QSpinBox>
#include <QStyle>
#include <QToolButton>
#include <QUndoStack>
#include <QtTest>

using namespace sosrep::ui;

namespace {

/// A main window whose save question answers itself.
class AnsweringWindow : public MainWindow
{
public:
    QMessageBox::StandardButton answer = QMessageBox::Cancel;
    int asked = 0;

protected:
    QMessageBox::StandardButton askToSave() override
    {
        ++asked;
        return answer;
    }
};

} // namespace

class TstDesktopConventions : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    QString writeCsv(const QString& name, const QByteArray& header, int n)
    {
        QByteArray csv = header + '\n';
        for (int i = 0; i < n; ++i) {
            csv += QByteArray::number(std::cos(i * 0.7) * (1 + i % 3), 'g', 8) + ',' +
                   QByteArray::number(std::sin(i * 0.7) * (1 + i % 3), 'g', 8) + ',' +
                   (i % 20 == 0 ? "1" : "0") + '\n';
        }
        const QString path = m_dir.filePath(name);
        QFile f(path);
        if (f.open(QIODevice::WriteOnly)) {
            f.write(csv);
        }
        return path;
    }

    /// Columns k0 and k1 constant, a and b varying, and a label.
    QString constantColumnsCsv()
    {
        QByteArray csv("k0,a,k1,b,label\n");
        for (int i = 0; i < 80; ++i) {
            csv += "3," + QByteArray::number(std::cos(i * 0.3), 'g', 8) + ",0," +
                   QByteArray::number(std::sin(i * 0.5), 'g', 8) + ',' + (i % 20 ? "0" : "1") +
                   '\n';
        }
        const QString path = m_dir.filePath(QStringLiteral("const.csv"));
        QFile f(path);
        if (f.open(QIODevice::WriteOnly)) {
            f.write(csv);
        }
        return path;
    }

private slots:
    void initTestCase()
    {
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope,
                           m_dir.filePath(QStringLiteral("settings")));
        QCoreApplication::setOrganizationName(QStringLiteral("SosrepTestsDesktop"));
    }

    void titleNamesTheFileAndMarksChanges()
    {
        MainWindow w;
        const QString data = writeCsv(QStringLiteral("heights.csv"), "a,b,label", 100);
        w.openFile(data);
        QVERIFY(w.windowTitle().startsWith(QStringLiteral("heights.csv")));
        QVERIFY(!w.isWindowModified());
        QVERIFY(w.session()->setOption("seed", "3"));
        QVERIFY(w.isWindowModified());
        const QString project = m_dir.filePath(QStringLiteral("study.sosrep.json"));
        QCOMPARE(w.projectFiles()->saveTo(project), QString());
        QVERIFY(!w.isWindowModified());
        QVERIFY(w.windowTitle().startsWith(QStringLiteral("study.sosrep.json")));
        // Projects and data files both in Open recent, newest first.
        const QStringList recent = w.projectFiles()->recentFiles();
        QCOMPARE(recent.value(0), QFileInfo(project).absoluteFilePath());
        QCOMPARE(recent.value(1), QFileInfo(data).absoluteFilePath());
        // Reopening the project from the list: same settings, not modified.
        MainWindow other;
        QCOMPARE(other.projectFiles()->openProject(project), QString());
        QCOMPARE(other.session()->settings().values.text("seed"), std::string("3"));
        QVERIFY(!other.isWindowModified());
    }

    void undoAndRedoSettingsAndRoles()
    {
        MainWindow w;
        w.openFile(writeCsv(QStringLiteral("u.csv"), "a,b,label", 100));
        auto* c = w.session();
        QUndoStack* stack = w.controllers().history->stack();
        QCOMPARE(stack->count(), 0);
        const std::string before = c->settings().values.text("kernel");
        QVERIFY(c->setOption("kernel", "laplace"));
        QCOMPARE(stack->count(), 1);
        // Named as the panel names it (issue 24: the texts used the internal names).
        QVERIFY2(stack->undoText().contains(QStringLiteral("Kernel gaussian → laplace")),
                 qPrintable(stack->undoText()));
        stack->undo();
        QCOMPARE(c->settings().values.text("kernel"), before);
        stack->redo();
        QCOMPARE(c->settings().values.text("kernel"), std::string("laplace"));
        // A role change is one step too.
        QVector<ColumnRole> roles = c->data().columnRoles();
        QCOMPARE(roles.value(2), ColumnRole::Label);
        roles[1] = ColumnRole::Ignore;
        QVERIFY(c->setColumnRoles(roles));
        QCOMPARE(c->data().featureNames(), QStringList{QStringLiteral("a")});
        stack->undo();
        QCOMPARE(c->data().featureNames(), (QStringList{QStringLiteral("a"), QStringLiteral("b")}));
        QCOMPARE(c->settings().values.text("kernel"), std::string("laplace"));
        // New data starts a new history.
        w.openFile(writeCsv(QStringLiteral("v.csv"), "p,q,is_outlier", 80));
        QCOMPARE(stack->count(), 0);
    }

    void quitAsksToSaveAModifiedSession()
    {
        AnsweringWindow w;
        w.show();
        w.openFile(writeCsv(QStringLiteral("q.csv"), "a,b,label", 60));
        QVERIFY(w.close()); // nothing changed: no question
        QCOMPARE(w.asked, 0);
        w.show();
        QVERIFY(w.session()->setOption("seed", "9"));
        w.answer = QMessageBox::Cancel;
        QVERIFY(!w.close());
        QCOMPARE(w.asked, 1);
        QVERIFY(w.isVisible());
        w.answer = QMessageBox::Discard;
        QVERIFY(w.close());
        QCOMPARE(w.asked, 2);
    }

    void labelColumnsFoundByTheirUsualNames()
    {
        for (const char* name : {"is_outlier", "outlier", "anomaly", "target", "label"}) {
            MainWindow w;
            w.openFile(writeCsv(QStringLiteral("l.csv"), QByteArray("a,b,") + name, 60));
            QCOMPARE(w.session()->data().labelColumn(), QString::fromLatin1(name));
            QVERIFY(w.session()->data().labels().has_value());
            QCOMPARE(w.session()->data().featureNames().size(), 2);
        }
        MainWindow w;
        w.openFile(writeCsv(QStringLiteral("n.csv"), "a,b,c", 60));
        QVERIFY(w.session()->data().labelColumn().isEmpty()); // an unnamed 0/1 column is a feature
        QCOMPARE(w.session()->data().featureNames().size(), 3);
    }

    // The map opens on two columns that vary: mnist's first column is constant, and a slice with
    // a flat axis told nothing.
    void plotColumnsSkipConstantColumns()
    {
        const QString path = constantColumnsCsv();
        MainWindow w;
        w.openFile(path);
        QCOMPARE(w.session()->data().featureNames().size(), 4);
        QCOMPARE(w.session()->data().plotX(), 1);
        QCOMPARE(w.session()->data().plotY(), 3);
        // With the plain two-column data the first two stay.
        w.openFile(writeCsv(QStringLiteral("plain.csv"), "a,b,label", 60));
        QCOMPARE(w.session()->data().plotX(), 0);
        QCOMPARE(w.session()->data().plotY(), 1);
    }

    // Warnings outlive the status message: a status-bar button counts them and lists them.
    void warningsStayReachable()
    {
        MainWindow w;
        auto* button = w.findChild<QToolButton*>(QStringLiteral("warningsButton"));
        QVERIFY(button);
        QVERIFY(!button->isVisibleTo(&w));
        w.openFile(constantColumnsCsv());
        QVERIFY(button->isVisibleTo(&w));
        QCOMPARE(button->text(), QStringLiteral("⚠ 1 warning"));
        QVERIFY(button->toolTip().contains(QStringLiteral("2 columns are constant")));
        button->click();
        auto* box = w.findChild<QMessageBox*>(QStringLiteral("warningsBox"));
        QVERIFY(box);
        QVERIFY(box->informativeText().contains(QStringLiteral("'k0' (3), 'k1' (0)")));
        box->close();
        w.openFile(writeCsv(QStringLiteral("plain2.csv"), "a,b,label", 60));
        QVERIFY(!button->isVisibleTo(&w));
    }

    void aboutNamesTheLibraryVersions()
    {
        MainWindow w;
        const QString about = aboutText();
        QVERIFY(about.contains(QStringLiteral("Qt ") + QString::fromLatin1(qVersion())));
        QVERIFY(about.contains(QStringLiteral("QCustomPlot 2.")));
        QVERIFY(about.contains(QStringLiteral("Eigen 3.")));
        // Issue 24: the app's own version and how to cite the method.
        QVERIFY(about.contains(QStringLiteral("SOSREP Studio 0.")));
        QVERIFY(about.contains(QStringLiteral("Sobolev Space Regularised Pre Density Models")));
        QVERIFY(about.contains(QStringLiteral("arXiv:2307.13763")));
        QVERIFY(quickGuide().contains(QStringLiteral("F5")));
        // The guide covers every view; it and the icon come from resources/.
        for (int i = 0; i < w.views().tabs->count(); ++i) {
            const QString view = w.views().tabs->tabText(i).remove(QLatin1Char('&'));
            QVERIFY2(quickGuide().contains(QStringLiteral("<b>%1</b>").arg(view)),
                     qPrintable(view));
        }
        // Issue 50: the guide predated the hue, joint and pair plots, map colours, overlays, the
        // ROC of other estimators, the flags and the row-name role. It names each control as
        // the window labels it (read from the widgets, so a renamed control fails here).
        QStringList controls;
        for (QAction* menu : w.menuBar()->actions()) {
            if (menu->text().remove(QLatin1Char('&')) == QStringLiteral("View")) {
                for (QAction* a : menu->menu()->actions()) {
                    const QString text = a->text().remove(QLatin1Char('&')).section(':', 0, 0);
                    if (text == QStringLiteral("Map colours") ||
                        text == QStringLiteral("Joint plot") || text.startsWith("Copy as")) {
                        controls << text;
                    }
                }
            }
        }
        QCOMPARE(controls.size(), 4); // and Copy as command, Copy as Python
        for (QLabel* l : w.views().densityPage->findChildren<QLabel*>()) {
            if (l->text() == QStringLiteral("Show:") || l->text() == QStringLiteral("Hue:")) {
                controls << l->text();
            }
        }
        controls << w.views().densityPage->overlayButton()->text();
        controls << w.views().densityPage->hueOptionsButton()->text();
        controls << w.findChild<QToolButton*>(QStringLiteral("rocWith"))->text();
        for (QCheckBox* box : w.views().scores->findChildren<QCheckBox*>()) {
            controls << box->text(); // Flag
        }
        for (const QString& role : {QStringLiteral("row name"), QStringLiteral("ignore")}) {
            controls << role; // the role table's choices (data_panel.cpp)
        }
        controls << QStringLiteral("Rows fitted at most");
        for (const QString& control : controls) {
            QVERIFY2(quickGuide().contains(control), qPrintable(control));
        }
        const QPixmap icon = w.windowIcon().pixmap(32, 32);
        QVERIFY(!icon.isNull());
        QVERIFY(icon.toImage().pixelColor(16, 16) != icon.toImage().pixelColor(0, 0));
    }

    void menuButtonsHaveRoomForTheirArrow()
    {
        // The style drew the menu's arrow over the end of "Overlay…", "Hue ℓ…" and "ROC of…".
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        for (QToolButton* b :
             {w.views().densityPage->overlayButton(), w.views().densityPage->hueOptionsButton(),
              w.findChild<QToolButton*>(QStringLiteral("rocWith"))}) {
            QVERIFY(b && b->menu());
            const int arrow = b->style()->pixelMetric(QStyle::PM_MenuButtonIndicator, nullptr, b);
            const int text = b->fontMetrics().horizontalAdvance(b->text());
            QVERIFY2(b->minimumWidth() >= text + arrow + 8,
                     qPrintable(QStringLiteral("%1: %2 px for %3 px of text and a %4 px arrow")
                                    .arg(b->text())
                                    .arg(b->minimumWidth())
                                    .arg(text)
                                    .arg(arrow)));
        }
    }

    void shortcutsWorkWhileASpinBoxHasFocus()
    {
        MainWindow w;
        w.show();
        w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        w.session()->generateToy(sosrep::ToyKind::TwoMoons, 200, 0);
        // A current result: Export is offered only then (issue 24).
        QSignalSpy finished(w.session(), &Session::fitFinished);
        w.fits()->fit();
        QVERIFY(finished.wait(60000));
        QSpinBox* spin = w.findChild<QSpinBox*>();
        QVERIFY(spin);
        spin->setFocus();
        QTRY_VERIFY(spin->hasFocus());
        QSignalSpy pick(w.views().density, &DensityHeatmap::pickModeChanged);
        QTest::keyClick(spin, Qt::Key_K, Qt::ControlModifier);
        QCOMPARE(pick.count(), 1);
        QCOMPARE(pick.first().first().toBool(), true);
        // Ctrl+E (Export plot) opens its file dialog, closed here as soon as it shows.
        QAction* exportPlot = nullptr;
        for (QAction* a : w.findChildren<QAction*>()) {
            exportPlot = a->shortcut() == QKeySequence(Qt::CTRL | Qt::Key_E) ? a : exportPlot;
        }
        QVERIFY(exportPlot);
        QSignalSpy triggered(exportPlot, &QAction::triggered);
        QTimer closer;
        QObject::connect(&closer, &QTimer::timeout, [] {
            if (QWidget* dialog = QApplication::activeModalWidget()) {
                dialog->close();
            }
        });
        closer.start(50);
        spin->setFocus();
        QTest::keyClick(spin, Qt::Key_E, Qt::ControlModifier);
        QCOMPARE(triggered.count(), 1);
    }
};

QTEST_MAIN(TstDesktopConventions)
#include "tst_desktop_conventions.moc"
