// SPDX-License-Identifier: MIT
// The window's files: opening data and projects, saving projects, recent files, title and the
// modified mark.
#pragma once

#include "ui/project_file.h"

#include <QObject>
#include <QString>
#include <QStringList>

class QMainWindow;
class QMenu;

namespace sosrep::ui {

/// The folder the last file was opened from or saved to.
QString lastFolder();

/// What the File menu does with files, and the desktop conventions around them: the window's
/// title names the project or data file, with a modified mark while the settings or roles
/// changed since it was opened or saved; Open recent lists data files and projects.
class ProjectFiles : public QObject
{
    Q_OBJECT

public:
    ProjectFiles(QMainWindow* window, const ProjectParts& parts);

    /// What a project saves and opens (project_file.h).
    const ProjectParts& parts() const { return m_parts; }
    /// Loads a data file; false when it cannot (the session says why).
    bool openData(const QString& path);
    /// Reopens a saved session; returns "" or the error (shown to the user, state kept).
    QString openProject(const QString& path);
    /// Writes the session as a project; "" or the error (shown). Clears the modified mark.
    QString saveTo(const QString& path);
    void openDataInteractively();
    void openProjectInteractively();
    void saveInteractively();
    /// Saves before closing, to the project opened or saved last or to a file asked for;
    /// false when it was not saved (cancelled or failed).
    bool saveBeforeClosing();
    /// Open recent: data files and projects, newest first (full paths).
    QStringList recentFiles() const;
    QMenu* recentMenu() const { return m_recentMenu; }

signals:
    void error(const QString& message);
    void message(const QString& text, int milliseconds);
    /// A project's state is in the session and its controllers (the views may sync to it).
    void projectOpened();

private:
    /// The window now stands for the project at `path` (saved or opened): title, recent files,
    /// no unsaved change; `message` in the status bar.
    void becomeProject(const QString& path, const QString& text, int milliseconds);
    /// "file.csv[*] — SOSREP Studio": the project or data file, and the modified mark.
    void updateTitle();
    void rememberFile(const QString& path);
    void rebuildRecentMenu();

    QMainWindow* m_window;
    ProjectParts m_parts;
    QMenu* m_recentMenu;
    QString m_projectPath;  // the project saved or opened last ("" = none)
    bool m_loading = false; // opening data or a project: not a user's change
};

} // namespace sosrep::ui
