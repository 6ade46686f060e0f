// SPDX-License-Identifier: MIT
// Temporary files for tests.
#pragma once

#include <QByteArray>
#include <QFile>
#include <QString>
#include <QTemporaryDir>

/// Writes `text` to `name` inside `dir` and returns its path (a failed write leaves no file,
/// which the test then reports as a missing input).
inline QString writeTempFile(const QTemporaryDir& dir, const QString& name, const QByteArray& text)
{
    const QString path = dir.filePath(name);
    QFile f(path);
    if (f.open(QIODevice::WriteOnly)) {
        f.write(text);
    }
    return path;
}
