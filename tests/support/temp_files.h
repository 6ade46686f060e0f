// SPDX-License-Identifier: MIT
// Temporary files for tests.
#pragma once

#include <QByteArray>
#include <QCoreApplication>
#include <QFile>
#include <QSettings>
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

/// A test's scratch folder: its files, and the app's settings (window state, recent files and
/// folders) kept in it instead of the user's own.
class ScratchDir
{
public:
    /// Writes `text` to `name` in the folder and returns its path.
    QString write(const QString& name, const QByteArray& text) const
    {
        return writeTempFile(m_dir, name, text);
    }
    QString write(const char* name, const QByteArray& text) const
    {
        return write(QString::fromLatin1(name), text);
    }
    QString filePath(const QString& name) const { return m_dir.filePath(name); }
    QString path() const { return m_dir.path(); }
    /// QSettings of this process read and write in the folder (a GUI test's initTestCase).
    void isolateSettings() const
    {
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope,
                           m_dir.filePath(QStringLiteral("settings")));
        QCoreApplication::setOrganizationName(QStringLiteral("SosrepTests"));
    }

private:
    QTemporaryDir m_dir;
};
