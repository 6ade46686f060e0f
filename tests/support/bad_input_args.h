// SPDX-License-Identifier: MIT
// Bad-input cases shared by the command-line and fuzz tests.
#pragma once
// tst_bad_inputs' argument placeholders and output-folder snapshots.
#include "support/shared_data.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QMap>
#include <QRegularExpression>
#include <QStringList>

namespace bad_inputs {

/// Placeholders in the argument lists, replaced per run:
///   TRAIN, TEST      a valid training and test CSV (columns a, b, label)
///   BAD/<file>       tests/data/bad/<file> (crafted by tests/tools/make_bad_inputs)
///   OUT/<file>       a new file in this case's output folder
///   OLD              an existing file in the output folder (content "OLD\n")
///   NODIR/<file>     a path in a folder that does not exist
///   DIR              the output folder itself
inline QStringList expand(QStringList args, const QString& train, const QString& test,
                          const QString& outDir)
{
    // One pass over the original text: a replacement is never read again (a temporary folder
    // named ...UyOLDo... once had its "OLD" replaced by the old file's path).
    const QMap<QString, QString> tokens{
        {QStringLiteral("NODIR/"), outDir + QStringLiteral("/missing/folder/")},
        {QStringLiteral("TRAIN"), train},
        {QStringLiteral("TEST"), test},
        {QStringLiteral("BAD/"), QStringLiteral(SOSREP_TEST_DATA_DIR "/bad/")},
        {QStringLiteral("OUT/"), outDir + QLatin1Char('/')},
        {QStringLiteral("OLD"), outDir + QStringLiteral("/old.csv")},
        {QStringLiteral("ADBENCH"),
         QFileInfo(QString::fromStdString(adbenchPath("45_wine.npz"))).path()}};
    static const QRegularExpression any(QStringLiteral("NODIR/|TRAIN|TEST|BAD/|OUT/|OLD|ADBENCH"));
    for (QString& a : args) {
        if (a == QLatin1String("DIR")) {
            a = outDir;
            continue;
        }
        QString out;
        qsizetype at = 0;
        for (auto it = any.globalMatch(a); it.hasNext();) {
            const QRegularExpressionMatch m = it.next();
            out += a.mid(at, m.capturedStart() - at) + tokens.value(m.captured());
            at = m.capturedEnd();
        }
        a = out + a.mid(at);
    }
    return args;
}

/// Every entry of a folder (hidden ones too) with its content.
inline QMap<QString, QByteArray> snapshot(const QString& dir)
{
    QMap<QString, QByteArray> out;
    const QDir d(dir);
    for (const QString& name :
         d.entryList(QDir::Files | QDir::Dirs | QDir::Hidden | QDir::NoDotAndDotDot)) {
        QFile f(d.filePath(name));
        out[name] = f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("<dir>");
    }
    return out;
}

} // namespace bad_inputs
