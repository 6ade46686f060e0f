// SPDX-License-Identifier: MIT
// View > Copy as command / Copy as Python (issue 50): the copied text is run as it is, the
// command through the command line's runner and the Python by Debian's python3 with the
// package of this build, and their numbers are the app's bit for bit.
#include "support/cli_run.h"
#include "support/gui_fixtures.h"
#include "ui/controller/fit_controller.h"
#include "ui/controller/ratio_controller.h"
#include "ui/controller/session.h"
#include "ui/controller/threshold_controller.h"
#include "ui/exporter.h"
#include "ui/main_window.h"
#include "ui/plots/density_page.h"
#include "ui/plots/ratio_view.h"
#include "ui/reproduce.h"
#include "ui/scores_tab.h"

#include <QClipboard>
#include <QDir>
#include <QGuiApplication>
#include <QProcess>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>

#include <cstdlib>

using namespace sosrep::ui;

namespace {

/// A line split into words as a POSIX shell does for what shellQuoted writes: single quotes
/// (QProcess::splitCommand knows only double quotes) and backslash escapes outside them.
QStringList shellWords(const QString& line)
{
    QStringList words;
    QString word;
    bool inWord = false, quoted = false;
    for (int i = 0; i < line.size(); ++i) {
        const QChar c = line[i];
        if (quoted) {
            if (c == QLatin1Char('\'')) {
                quoted = false;
            } else {
                word += c;
            }
        } else if (c == QLatin1Char('\'')) {
            quoted = inWord = true;
        } else if (c == QLatin1Char('\\') && i + 1 < line.size()) {
            word += line[++i];
            inWord = true;
        } else if (c.isSpace()) {
            if (inWord) {
                words << word;
            }
            word.clear();
            inWord = false;
        } else {
            word += c;
            inWord = true;
        }
    }
    if (inWord) {
        words << word;
    }
    return words;
}

/// Runs the copied shell text line by line (comments skipped) in `folder`.
QString runCommandText(const QString& text, const QString& folder, QJsonObject* summary)
{
    const QString before = QDir::currentPath();
    QDir::setCurrent(folder);
    QString problem;
    for (const QString& line : text.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        if (line.startsWith(QLatin1Char('#'))) {
            continue;
        }
        QStringList words = shellWords(line);
        if (words.isEmpty() || words.takeFirst() != QLatin1String("sosrep")) {
            problem = QStringLiteral("not a sosrep line: ") + line;
            break;
        }
        const CliRun r = runSosrep(words);
        if (r.code != 0) {
            problem = line + QStringLiteral(": ") + r.err;
            break;
        }
        if (words.first() == QLatin1String("fit")) {
            *summary = r.summary();
        }
    }
    QDir::setCurrent(before);
    return problem;
}

/// The second column of a scores file (the log density or the normality score), as written.
std::vector<double> scoreColumn(const QString& path)
{
    std::vector<double> out;
    const QStringList lines = QString::fromUtf8(bytesOf(path)).split(QLatin1Char('\n'));
    for (int i = 1; i < lines.size(); ++i) {
        if (!lines[i].isEmpty()) {
            out.push_back(lines[i].section(QLatin1Char(','), 1, 1).toDouble());
        }
    }
    return out;
}

} // namespace

class TstReproduce : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    /// The copied Python run in `folder`: its `variable`, exactly (as hexadecimal floats).
    static QString runPythonText(const QString& text, const QString& folder,
                                 std::vector<double>* scores,
                                 const QString& variable = QStringLiteral("scores"))
    {
        const QByteArray python = qgetenv("SOSREP_TEST_PYTHON");
        QFile f(folder + QStringLiteral("/reproduce.py"));
        if (!f.open(QIODevice::WriteOnly)) {
            return QStringLiteral("cannot write the script");
        }
        f.write(text.toUtf8() + "\nprint(' '.join(float(v).hex() for v in " + variable.toUtf8() +
                "))\n");
        f.close();
        QProcess p;
        p.setWorkingDirectory(folder);
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("PYTHONPATH"), qEnvironmentVariable("SOSREP_TEST_PYTHONPATH"));
        p.setProcessEnvironment(env);
        p.start(QString::fromUtf8(python), {f.fileName()});
        if (!p.waitForFinished(300000) || p.exitStatus() != QProcess::NormalExit ||
            p.exitCode() != 0) {
            return QStringLiteral("python exited with %1: %2")
                .arg(p.exitCode())
                .arg(QString::fromUtf8(p.readAllStandardError()));
        }
        for (const QByteArray& word : p.readAllStandardOutput().trimmed().split(' ')) {
            scores->push_back(std::strtod(word.constData(), nullptr));
        }
        return {};
    }

    /// Both copies of both views of the fit `w` holds, checked against the app.
    void checkBothViews(MainWindow& w, const QString& name)
    {
        Session* c = w.session();
        for (const bool scoresView : {false, true}) {
            w.views().tabs->setCurrentWidget(scoresView
                                                 ? static_cast<QWidget*>(w.views().scores)
                                                 : static_cast<QWidget*>(w.views().densityPage));
            const Reproduction r = w.exporter()->reproduction();
            if (qEnvironmentVariableIsSet("SOSREP_SHOW_REPRODUCTION")) {
                qInfo().noquote() << r.command << r.python;
            }
            w.exporter()->copyReproduction(false);
            QCOMPARE(QGuiApplication::clipboard()->text(), r.command);
            const QString folder = m_dir.filePath(name + (scoresView ? "_scores" : "_density"));
            QVERIFY(QDir().mkpath(folder));
            QJsonObject summary;
            const QString problem = runCommandText(r.command, folder, &summary);
            QVERIFY2(problem.isEmpty(), qPrintable(r.command + QStringLiteral("\n") + problem));
            const QString cli = folder + QStringLiteral("/scores.csv");
            if (scoresView) {
                // The Scores view's table, exported, is the command's file byte for byte.
                const QString app = folder + QStringLiteral("/app.csv");
                QCOMPARE(w.exporter()->exportScores(app), QString());
                QCOMPARE(bytesOf(app), bytesOf(cli));
            } else {
                // The density view's model: the same length scale, to the last bit.
                QCOMPARE(summary[QStringLiteral("length_scale")].toDouble(),
                         c->result()->lengthScale());
            }
            if (qEnvironmentVariableIsEmpty("SOSREP_TEST_PYTHON")) {
                continue; // a build without the Python package (sanitizers)
            }
            w.exporter()->copyReproduction(true);
            QCOMPARE(QGuiApplication::clipboard()->text(), r.python);
            std::vector<double> py;
            const QString failed = runPythonText(r.python, folder, &py);
            QVERIFY2(failed.isEmpty(), qPrintable(r.python + QStringLiteral("\n") + failed));
            const std::vector<double> want = scoreColumn(cli);
            QCOMPARE(py.size(), want.size());
            for (size_t i = 0; i < want.size(); ++i) {
                QVERIFY2(py[i] == want[i], qPrintable(QStringLiteral("row %1: %2 vs %3")
                                                          .arg(i)
                                                          .arg(py[i], 0, 'g', 17)
                                                          .arg(want[i], 0, 'g', 17)));
            }
        }
    }

    /// The Ratio view's copies, run: the command's weights.csv is the view's Save weights byte
    /// for byte, and the Python's `weights` are its raw weights bit for bit.
    void checkRatioView(MainWindow& w, const QString& name)
    {
        RatioController* ratio = w.controllers().ratios;
        QSignalSpy done(ratio, &RatioController::resultChanged);
        ratio->fit();
        QVERIFY(done.wait(60000) && ratio->result());
        w.views().tabs->setCurrentWidget(w.views().ratio);
        const Reproduction r = w.exporter()->reproduction();
        if (qEnvironmentVariableIsSet("SOSREP_SHOW_REPRODUCTION")) {
            qInfo().noquote() << r.command << r.python;
        }
        QCOMPARE(r.arguments.value(0), QStringLiteral("ratio"));
        w.exporter()->copyReproduction(false);
        QCOMPARE(QGuiApplication::clipboard()->text(), r.command);
        const QString folder = m_dir.filePath(name);
        QVERIFY(QDir().mkpath(folder));
        QJsonObject summary;
        const QString problem = runCommandText(r.command, folder, &summary);
        QVERIFY2(problem.isEmpty(), qPrintable(r.command + QStringLiteral("\n") + problem));
        const QString cli = folder + QStringLiteral("/weights.csv");
        const QString app = folder + QStringLiteral("/app_weights.csv");
        QCOMPARE(w.views().ratio->saveWeights(app), QString());
        QVERIFY2(bytesOf(app) == bytesOf(cli), qPrintable(r.command));
        if (qEnvironmentVariableIsEmpty("SOSREP_TEST_PYTHON")) {
            return;
        }
        w.exporter()->copyReproduction(true);
        QCOMPARE(QGuiApplication::clipboard()->text(), r.python);
        std::vector<double> py;
        const QString failed = runPythonText(r.python, folder, &py, QStringLiteral("weights"));
        QVERIFY2(failed.isEmpty(), qPrintable(r.python + QStringLiteral("\n") + failed));
        const sosrep::Vector& want = ratio->result()->weights;
        QCOMPARE(Eigen::Index(py.size()), want.size());
        for (Eigen::Index i = 0; i < want.size(); ++i) {
            QVERIFY2(py[size_t(i)] == want(i), qPrintable(QStringLiteral("row %1: %2 vs %3\n%4")
                                                              .arg(i)
                                                              .arg(py[size_t(i)], 0, 'g', 17)
                                                              .arg(want(i), 0, 'g', 17)
                                                              .arg(r.python)));
        }
    }

private slots:
    void initTestCase()
    {
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope,
                           m_dir.filePath(QStringLiteral("settings")));
    }

    void theDefaultsOfAFile()
    {
        const QString data = m_dir.filePath(QStringLiteral("moons.csv"));
        const CliRun g = runSosrep({"generate", "--kind", "moons", "--n", "300", "--seed", "3",
                                    "--anomalies", "0.05", "--out", data});
        QVERIFY2(g.code == 0, qPrintable(g.err));
        MainWindow w;
        QVERIFY(w.openFile(data));
        w.controllers().thresholds->setContamination(0.1);
        QSignalSpy ready(w.controllers().thresholds, &ThresholdController::ready);
        QVERIFY(fitAndWait(w.fits()));
        // The outlier flags come from a cross-fit after the fit: the table has them then.
        QVERIFY(w.controllers().thresholds->threshold() || ready.wait(60000));
        checkBothViews(w, QStringLiteral("defaults"));
    }

    void anIgnoredColumnAndOptionsThatAreNotDefaults()
    {
        // A third column left out by its role, KDE at a fixed l, z-scores, another seed.
        // Tab-separated: the Python reads it with the delimiter the app's reader detected.
        QByteArray tsv = "a\tb\tnoise\tlabel\n";
        for (int i = 0; i < 240; ++i) {
            tsv +=
                QByteArray::number(std::sin(i * 0.37) * 2.0 + (i % 40 == 0 ? 6.0 : 0.0), 'g', 17) +
                '\t' + QByteArray::number(std::cos(i * 0.11), 'g', 17) + '\t' +
                QByteArray::number(i % 7) + '\t' + (i % 40 == 0 ? "1" : "0") + '\n';
        }
        const QString data = m_dir.filePath(QStringLiteral("three.tsv"));
        QFile f(data);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(tsv);
        f.close();
        MainWindow w;
        Session* c = w.session();
        QVERIFY(w.openFile(data));
        QVERIFY(c->setColumnRoles(
            {ColumnRole::Feature, ColumnRole::Feature, ColumnRole::Ignore, ColumnRole::Label}));
        c->setEstimator("kde");
        QVERIFY(c->setOption("length_scale", "0.08"));
        QVERIFY(c->setOption("scale", "zscore"));
        QVERIFY(c->setOption("seed", "11"));
        QVERIFY(fitAndWait(w.fits()));
        const Reproduction r = w.exporter()->reproduction();
        QVERIFY2(r.command.contains(QStringLiteral("--columns a,b")), qPrintable(r.command));
        QVERIFY(r.python.contains(QStringLiteral("length_scale=0.08")));
        QVERIFY2(r.python.contains(QStringLiteral("sep=\"\\t\"")), qPrintable(r.python));
        checkBothViews(w, QStringLiteral("options"));
    }

    // Issue 50: on the Ratio tab the copies gave the density fit's command. Now `sosrep ratio`
    // takes the view's split of the loaded data (--q-where, --q-inside, --p-all) and q's
    // density (--q-density), and Python's fit(P, Q, q_density=...) or q=sosrep.q_function(...).
    void theRatioViewSplitByTheLabel()
    {
        const QString data = m_dir.filePath(QStringLiteral("ratio_moons.csv"));
        const CliRun g = runSosrep({"generate", "--kind", "moons", "--n", "300", "--seed", "5",
                                    "--anomalies", "0.1", "--out", data});
        QVERIFY2(g.code == 0, qPrintable(g.err));
        MainWindow w;
        QVERIFY(w.openFile(data));
        RatioController* ratio = w.controllers().ratios;
        RatioSource split;
        split.kind = RatioSource::Column;
        split.column = QStringLiteral("label");
        split.value = 1.0;
        QVERIFY(ratio->setSource(split));
        QVERIFY(ratio->setOption("seed", "5"));
        checkRatioView(w, QStringLiteral("ratio_label"));
        const Reproduction r = w.exporter()->reproduction();
        QVERIFY2(r.command.contains(QStringLiteral("--q-where label=1 ")), qPrintable(r.command));
        QVERIFY(r.command.contains(QStringLiteral("--seed 5")));
        QVERIFY(!r.command.contains(QStringLiteral("--p-all")));
    }

    void theRatioViewsRectangleWithQsDensityOnAToySet()
    {
        MainWindow w;
        w.session()->generateToy(sosrep::ToyKind::Shift, 300, 4);
        RatioController* ratio = w.controllers().ratios;
        RatioSource rect;
        rect.kind = RatioSource::Rect;
        rect.x1 = -0.9; // the corners in either order
        rect.x0 = 1.3;
        rect.y0 = -1.1;
        rect.y1 = 0.7;
        rect.pAll = true;
        QVERIFY(ratio->setSource(rect));
        RatioQMode density;
        density.kind = RatioQMode::Density;
        density.densityEstimator = "kde";
        QVERIFY(ratio->setQMode(density));
        checkRatioView(w, QStringLiteral("ratio_rect"));
        const Reproduction r = w.exporter()->reproduction();
        QVERIFY2(r.command.contains(QStringLiteral("--q-inside x=-0.9:1.3,y=-1.1:0.7 --p-all "
                                                   "--q-density kde")),
                 qPrintable(r.command));
        QVERIFY(r.command.contains(QStringLiteral("sosrep generate --kind shift")));
    }

    void theRatioViewsExpressionWithAnIgnoredColumn()
    {
        QByteArray tsv = "a\tb\tnoise\n";
        for (int i = 0; i < 200; ++i) {
            tsv += QByteArray::number(std::sin(i * 0.37) * 1.5, 'g', 17) + '\t' +
                   QByteArray::number(std::cos(i * 0.11), 'g', 17) + '\t' +
                   QByteArray::number(i % 7) + '\n';
        }
        const QString data = m_dir.filePath(QStringLiteral("ratio_three.tsv"));
        QFile f(data);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(tsv);
        f.close();
        MainWindow w;
        QVERIFY(w.openFile(data));
        QVERIFY(w.session()->setColumnRoles(
            {ColumnRole::Feature, ColumnRole::Feature, ColumnRole::Ignore}));
        RatioQMode expr;
        expr.kind = RatioQMode::Expression;
        expr.expression = QStringLiteral("exp(-(x1-0.3)^2/2) * (1 + x2^2)");
        RatioController* ratio = w.controllers().ratios;
        QVERIFY(ratio->setQMode(expr));
        checkRatioView(w, QStringLiteral("ratio_expression"));
        const Reproduction r = w.exporter()->reproduction();
        QVERIFY2(r.command.contains(QStringLiteral("--columns a,b")), qPrintable(r.command));
        QVERIFY(r.python.contains(QStringLiteral("sosrep.q_function(")));
    }

    void aToySetIsGeneratedFirst()
    {
        MainWindow w;
        w.session()->generateToy(sosrep::ToyKind::TwoMoons, 250, 4);
        QVERIFY(fitAndWait(w.fits()));
        const Reproduction r = w.exporter()->reproduction();
        QVERIFY(r.command.contains(QStringLiteral("sosrep generate --kind moons --n 250")));
        checkBothViews(w, QStringLiteral("toy"));
    }
};

QTEST_MAIN(TstReproduce)
#include "tst_reproduce.moc"
