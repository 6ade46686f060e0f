// SPDX-License-Identifier: MIT
// Running `sosrep` from tests and reading what it wrote.
#pragma once

#include "app/cli/cli_runner.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <QTextStream>

/// One in-process run of the `sosrep` command line.
struct CliRun
{
    int code = 0;
    QString out;
    QString err;

    /// The JSON summary: the last line of stdout.
    QJsonObject summary() const
    {
        const QStringList lines = out.trimmed().split(QLatin1Char('\n'));
        return QJsonDocument::fromJson(lines.last().toUtf8()).object();
    }
};

inline CliRun runSosrep(const QStringList& args)
{
    CliRun r;
    QTextStream out(&r.out);
    QTextStream err(&r.err);
    r.code = sosrep::cli::runCli(args, out, err);
    out.flush();
    err.flush();
    return r;
}

inline QByteArray bytesOf(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

/// Writes `text` to `path`; false when it cannot.
inline bool writeText(const QString& path, const QString& text)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(text.toUtf8()) == text.toUtf8().size();
}

inline QStringList readLines(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        return {};
    }
    return QString::fromUtf8(f.readAll()).trimmed().split(QLatin1Char('\n'));
}
