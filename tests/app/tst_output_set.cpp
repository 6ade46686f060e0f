// SPDX-License-Identifier: MIT
// Issue 23: a command's outputs are all old or all new, even when replacing one of them fails
// in the middle of the commit (fit once exited 5 with three of its four outputs replaced).
#include "core/errors.h"
#include "core/io/output_set.h"

#include <QtTest>

#include <sys/stat.h>

using sosrep::io::OutputError;
using sosrep::io::OutputSet;

namespace {

QByteArray contentOf(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("<none>");
}

bool write(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

/// A folder where a file was, with something inside so that no rename can replace it.
bool turnIntoFolder(const QString& path)
{
    QFile::remove(path);
    return QDir().mkpath(path) && write(path + QStringLiteral("/inside"), "x");
}

} // namespace

class TstOutputSet : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString a, b, c, d;

    /// Four outputs: a and b exist (old content), c and d are new.
    void prepare(OutputSet& set)
    {
        QVERIFY(m_dir.isValid());
        QDir(m_dir.path()).removeRecursively();
        QDir().mkpath(m_dir.path());
        a = m_dir.filePath(QStringLiteral("a.csv"));
        b = m_dir.filePath(QStringLiteral("b.json"));
        c = m_dir.filePath(QStringLiteral("c.csv"));
        d = m_dir.filePath(QStringLiteral("d.csv"));
        QVERIFY(write(a, "OLD A") && write(b, "OLD B"));
        for (const QString& p : {a, b, c, d}) {
            set.plan(p.toStdString(), "--out");
            set.stage(p.toStdString(), "NEW " + QFileInfo(p).fileName().toStdString());
        }
    }
    QStringList entries() const
    {
        return QDir(m_dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot);
    }

private slots:
    // Saving to /dev/full as root replaced the device with a regular file (the commit's rename):
    // a target that exists and is not a regular file is refused when planned. A FIFO stands in
    // for a device here (no root needed); a link to it is followed.
    void aDeviceOrPipeTargetIsRefusedAndLeftAsItIs()
    {
        QVERIFY(m_dir.isValid());
        const QString fifo = m_dir.filePath(QStringLiteral("pipe"));
        const QString link = m_dir.filePath(QStringLiteral("link"));
        QFile::remove(fifo);
        QFile::remove(link);
        QCOMPARE(::mkfifo(fifo.toLocal8Bit().constData(), 0600), 0);
        QVERIFY(QFile::link(fifo, link));
        for (const QString& target : {fifo, link}) {
            OutputSet set;
            try {
                set.plan(target.toStdString(), "--scores-out");
                QFAIL("a pipe was planned as an output");
            } catch (const sosrep::ParameterError& e) {
                QCOMPARE(e.parameter(), std::string("--scores-out"));
                QVERIFY2(e.message().find("not a regular file") != std::string::npos,
                         e.message().c_str());
            }
            struct stat st;
            QCOMPARE(::stat(fifo.toLocal8Bit().constData(), &st), 0);
            QVERIFY(S_ISFIFO(st.st_mode));
        }
        // An existing regular file and a new name are still fine.
        const QString old = m_dir.filePath(QStringLiteral("old.csv"));
        QVERIFY(write(old, "OLD"));
        OutputSet set;
        set.plan(old.toStdString(), "--scores-out");
        set.plan(m_dir.filePath(QStringLiteral("new.csv")).toStdString(), "--model-out");
    }

    void commitReplacesEveryOutputAndLeavesNoSideFile()
    {
        OutputSet set;
        prepare(set);
        set.commit();
        QCOMPARE(contentOf(a), QByteArray("NEW a.csv"));
        QCOMPARE(contentOf(d), QByteArray("NEW d.csv"));
        QCOMPARE(entries(), (QStringList{"a.csv", "b.json", "c.csv", "d.csv"}));
    }

    void aRenameThatFailsMidwayPutsTheEarlierOutputsBack()
    {
        // c fails after a and b were replaced: both must hold their old content again and the
        // new c must not appear; d is never touched.
        for (const QString& failing : {QStringLiteral("c.csv"), QStringLiteral("d.csv")}) {
            OutputSet set;
            prepare(set);
            set.setBeforeRename([&](const std::string& path) {
                const QString target = QString::fromStdString(path);
                if (QFileInfo(target).fileName() == failing) {
                    QVERIFY(turnIntoFolder(target));
                }
            });
            QVERIFY_THROWS_EXCEPTION(OutputError, set.commit());
            QCOMPARE(contentOf(a), QByteArray("OLD A"));
            QCOMPARE(contentOf(b), QByteArray("OLD B"));
            QVERIFY(QFileInfo(failing == QLatin1String("c.csv") ? c : d).isDir());
            QVERIFY(!QFileInfo::exists(failing == QLatin1String("c.csv") ? d : c));
            QStringList expected{"a.csv", "b.json", failing};
            expected.sort();
            QCOMPARE(entries(), expected); // no staged or kept file left behind
        }
    }

    void aTargetTurnedIntoAFolderBeforeTheCommitChangesNothing()
    {
        OutputSet set;
        prepare(set);
        QVERIFY(turnIntoFolder(b)); // after plan(), before commit()
        try {
            set.commit();
            QFAIL("commit() replaced outputs though b is a folder");
        } catch (const OutputError& e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("b.json")), e.what());
        }
        QCOMPARE(contentOf(a), QByteArray("OLD A"));
        QVERIFY(!QFileInfo::exists(c) && !QFileInfo::exists(d));
        QCOMPARE(entries(), (QStringList{"a.csv", "b.json"}));
    }

    void anImmutableTargetChangesNothing()
    {
        // chattr +i needs root and a file system with the flag; where the machine allows it,
        // this is the case the issue saw, with no test hook.
        OutputSet set;
        prepare(set);
        if (QProcess::execute(QStringLiteral("chattr"), {QStringLiteral("+i"), b}) != 0) {
            QSKIP("chattr +i is not permitted here (needs root); the folder cases above cover "
                  "the same commit path");
        }
        QVERIFY_THROWS_EXCEPTION(OutputError, set.commit());
        QProcess::execute(QStringLiteral("chattr"), {QStringLiteral("-i"), b});
        QCOMPARE(contentOf(a), QByteArray("OLD A"));
        QCOMPARE(contentOf(b), QByteArray("OLD B"));
        QVERIFY(!QFileInfo::exists(c) && !QFileInfo::exists(d));
        QCOMPARE(entries(), (QStringList{"a.csv", "b.json"}));
    }
};

QTEST_GUILESS_MAIN(TstOutputSet)
#include "tst_output_set.moc"
