// SPDX-License-Identifier: MIT
// The outputs of a run are all old or all new whatever stops it (issue 52, items 4 and 5): a
// `sosrep fit` writing four outputs into two folders is killed after each step of its commit,
// and the next run that touches one of the outputs leaves exactly the old set or exactly the
// new one, with no file of the killed run left behind. SIGTERM during the renames waits for
// them; a second run writing the same outputs is refused before it computes anything.
#include "core/io/folder_lock.h"
#include "core/io/output_set.h"

#include <QDir>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <map>
#include <memory>

namespace {

QString cli()
{
    return qEnvironmentVariable("SOSREP_CLI");
}

QByteArray bytesOf(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("<missing>");
}

/// Every file of a folder, hidden ones included, with its content.
std::map<QString, QByteArray> filesIn(const QString& folder)
{
    std::map<QString, QByteArray> out;
    const QDir dir(folder);
    for (const QString& name : dir.entryList(QDir::Files | QDir::Hidden | QDir::System)) {
        out[name] = bytesOf(dir.filePath(name));
    }
    return out;
}

struct Run
{
    QProcess::ExitStatus status = QProcess::NormalExit;
    int code = 0;
    int signal = 0;
    QString err;
};

} // namespace

class TestCommitFaults : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_train, m_a, m_b;

    /// A fit with four outputs, in two folders (or all in the first); `adjust` (--bw-adjust)
    /// makes the sets of two runs differ.
    QStringList fitArgs(double adjust, bool twoFolders = true) const
    {
        const QString b = twoFolders ? m_b : m_a;
        return {"fit",
                "--train",
                m_train,
                "--label-column",
                "label",
                "--bw-adjust",
                QString::number(adjust),
                "--scores-out",
                m_a + "/s.csv",
                "--fd-out",
                m_a + "/fd.csv",
                "--model-out",
                b + "/m.json",
                "--trace-out",
                b + "/tr.csv"};
    }

    Run run(const QStringList& args, const QString& fault = QString()) const
    {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        if (!fault.isEmpty()) {
            env.insert(QStringLiteral("SOSREP_FAULT_AT"), fault);
        }
        env.insert(QStringLiteral("OMP_NUM_THREADS"), QStringLiteral("1"));
        p.setProcessEnvironment(env);
        p.start(cli(), args);
        p.waitForFinished(120000);
        Run r;
        r.status = p.exitStatus();
        r.code = p.exitCode();
        r.signal = r.status == QProcess::CrashExit ? p.exitCode() : 0;
        r.err = QString::fromUtf8(p.readAllStandardError());
        return r;
    }

    /// The two output folders' files.
    std::map<QString, QByteArray> outputs() const
    {
        std::map<QString, QByteArray> all;
        for (const auto& [name, bytes] : filesIn(m_a)) {
            all["a/" + name] = bytes;
        }
        for (const auto& [name, bytes] : filesIn(m_b)) {
            all["b/" + name] = bytes;
        }
        return all;
    }

    void restore(const std::map<QString, QByteArray>& set) const
    {
        for (const QString& folder : {m_a, m_b}) {
            QDir dir(folder);
            for (const QString& name : dir.entryList(QDir::Files | QDir::Hidden)) {
                dir.remove(name);
            }
        }
        for (const auto& [name, bytes] : set) {
            QFile f(m_dir.filePath(name));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(bytes);
        }
    }

    /// What a later run touching `touched` finds, after it planned them: the recovery
    /// happens at plan().
    void touch(const QStringList& touched) const
    {
        sosrep::io::OutputSet next;
        for (const QString& output : touched) {
            next.plan(m_dir.filePath(output).toStdString(), "--scores-out");
        }
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(QFileInfo(cli()).isExecutable(), "SOSREP_CLI names the sosrep binary");
        QVERIFY(m_dir.isValid());
        m_train = m_dir.filePath(QStringLiteral("train.csv"));
        m_a = m_dir.filePath(QStringLiteral("a"));
        m_b = m_dir.filePath(QStringLiteral("b"));
        QVERIFY(QDir().mkpath(m_a) && QDir().mkpath(m_b));
        const Run gen =
            run({"generate", "--kind", "moons", "-n", "300", "--seed", "4", "--out", m_train});
        QCOMPARE(gen.code, 0);
    }

    void killedAtEveryStep_nextRunLeavesTheOldOrTheNewSet_data()
    {
        QTest::addColumn<bool>("twoFolders");
        QTest::addColumn<QStringList>("touched");
        QTest::addColumn<int>("steps");
        // Steps: the journal in each folder, linked, kept, the forward journal in each folder,
        // each of 4 renames, cleaned, journal removed.
        QTest::newRow("two folders, the same command again")
            << true << QStringList{"a/s.csv", "a/fd.csv", "b/m.json", "b/tr.csv"} << 12;
        QTest::newRow("one folder, a run writing the trace alone")
            << false << QStringList{"a/tr.csv"} << 10;
    }

    void killedAtEveryStep_nextRunLeavesTheOldOrTheNewSet()
    {
        QFETCH(bool, twoFolders);
        QFETCH(QStringList, touched);
        QFETCH(int, steps);
        restore({});
        QCOMPARE(run(fitArgs(1.0, twoFolders)).code, 0);
        const std::map<QString, QByteArray> oldSet = outputs();
        QCOMPARE(oldSet.size(), size_t(4));
        QCOMPARE(run(fitArgs(1.5, twoFolders)).code, 0);
        const std::map<QString, QByteArray> newSet = outputs();
        QCOMPARE(newSet.size(), size_t(4));
        QVERIFY(newSet.at("a/s.csv") != oldSet.at("a/s.csv"));

        int killedSteps = 0, sawOld = 0, sawNew = 0;
        for (int k = 1;; ++k) {
            restore(oldSet);
            const Run killed = run(fitArgs(1.5, twoFolders), QString::number(k));
            if (killed.status == QProcess::NormalExit) {
                QCOMPARE(killed.code, 0); // past the last step: the run finished
                QCOMPARE(outputs(), newSet);
                break;
            }
            QCOMPARE(killed.signal, int(SIGKILL));
            ++killedSteps;
            touch(touched);
            const std::map<QString, QByteArray> after = outputs();
            const bool isOld = after == oldSet;
            const bool isNew = after == newSet;
            if (!isOld && !isNew) {
                QStringList names;
                for (const auto& [name, bytes] : after) {
                    names << name + (oldSet.count(name) && oldSet.at(name) == bytes   ? " (old)"
                                     : newSet.count(name) && newSet.at(name) == bytes ? " (new)"
                                                                                      : "");
                }
                QFAIL(qPrintable(QStringLiteral("killed after step %1: %2")
                                     .arg(k)
                                     .arg(names.join(QStringLiteral(", ")))));
            }
            sawOld += isOld;
            sawNew += isNew;
        }
        QCOMPARE(killedSteps, steps);
        QVERIFY(sawOld > 0 && sawNew > 0);
    }

    void signalDuringTheRenames_waitsForThem_data()
    {
        QTest::addColumn<int>("signal");
        QTest::newRow("SIGTERM") << int(SIGTERM);
        QTest::newRow("SIGINT") << int(SIGINT);
        QTest::newRow("SIGHUP") << int(SIGHUP);
    }

    void signalDuringTheRenames_waitsForThem()
    {
        // Sent after the 2nd of 4 renames (step 8), where the run left two new and two
        // old files: the renames finish, then the signal ends the process as it would have.
        QFETCH(int, signal);
        restore({});
        QCOMPARE(run(fitArgs(1.0)).code, 0);
        QCOMPARE(run(fitArgs(1.5)).code, 0);
        const std::map<QString, QByteArray> newSet = outputs();
        QCOMPARE(run(fitArgs(1.0)).code, 0);
        const Run r = run(fitArgs(1.5), QStringLiteral("8:%1").arg(signal));
        QCOMPARE(r.status, QProcess::CrashExit);
        QCOMPARE(r.signal, signal);
        QCOMPARE(outputs(), newSet); // no journal, no temporary left
    }

    void twoRunsWritingTheSameOutputs_commitOneAfterTheOther_andSaySo()
    {
        // Another run holds both folders in its commit: this run computes, waits, and commits
        // only when the other is done, its whole set at once. The other run's s.csv, written
        // while this one computed, is named in a warning.
        restore({});
        QCOMPARE(run(fitArgs(1.0)).code, 0);
        const std::map<QString, QByteArray> oldSet = outputs();
        QCOMPARE(run(fitArgs(1.5)).code, 0);
        const std::map<QString, QByteArray> newSet = outputs();
        restore(oldSet);
        auto other = std::make_unique<sosrep::io::FolderLocks>(
            std::vector<std::string>{m_a.toStdString(), m_b.toStdString()});
        QProcess p;
        p.start(cli(), fitArgs(1.5));
        QVERIFY(p.waitForStarted());
        QVERIFY(!p.waitForFinished(1500)); // computed by now (0.1 s), waiting for the folders
        QCOMPARE(outputs(), oldSet);
        QFile written(m_a + "/s.csv"); // the other run's commit replaces s.csv meanwhile
        QVERIFY(written.remove());
        QVERIFY(written.open(QIODevice::WriteOnly) && written.write("row,score\n") > 0);
        written.close();
        other.reset();
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        QCOMPARE(outputs(), newSet);
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QVERIFY2(err.contains(QStringLiteral("s.csv was written by another program (another "
                                             "run?) while this one computed")),
                 qPrintable(err));
        QVERIFY2(!err.contains(QStringLiteral("m.json was")), qPrintable(err));
    }
};

QTEST_GUILESS_MAIN(TestCommitFaults)
#include "tst_commit_faults.moc"
