// SPDX-License-Identifier: MIT
// The window's files: data and projects opened and saved, recent files, title and modified mark.
#include "ui/project_files.h"

#include "ui/controller/session.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QMainWindow>
#include <QMenu>
#include <QSettings>
#include <QStatusBar>

namespace sosrep::ui {
namespace {

bool isProjectPath(const QString& path)
{
    return path.endsWith(QLatin1String(".json"), Qt::CaseInsensitive);
}

} // namespace

QString lastFolder()
{
    return QSettings().value(QStringLiteral("files/lastFolder")).toString();
}

ProjectFiles::ProjectFiles(QMainWindow* window, const ProjectParts& parts)
    : QObject(window), m_window(window), m_parts(parts),
      m_recentMenu(new QMenu(tr("Open &recent"), window))
{
    rebuildRecentMenu();
    updateTitle();
    // The modified mark: a change of settings or roles the project does not hold yet.
    connect(&parts.session, &Session::dataChanged, this, &ProjectFiles::updateTitle);
    for (auto signal : {&Session::settingsChanged, &Session::dataChanged}) {
        connect(&parts.session, signal, this, [this] {
            if (!m_loading) {
                m_window->setWindowModified(true);
            }
        });
    }
}

bool ProjectFiles::openData(const QString& path)
{
    m_loading = true;
    const bool loaded = m_parts.session.loadFile(path);
    m_loading = false;
    if (!loaded) {
        return false;
    }
    rememberFile(path);
    m_projectPath.clear();
    m_window->setWindowModified(false);
    updateTitle();
    const SessionData& data = m_parts.session.data();
    const QString label = data.labelColumn();
    QString text =
        !label.isEmpty()
            ? tr("Loaded %1: column '%2' (0/1) taken as the label, used only for AUCs; "
                 "change its role in the table")
                  .arg(path, label)
        : data.labels()
            ? tr("Loaded %1: its array y (0/1) taken as the labels, used only for AUCs").arg(path)
            : tr("Loaded %1: no 0/1 label column found (AUCs need one: set a column's "
                 "role to label)")
                  .arg(path);
    for (const QString& note : data.loadNotes()) {
        text += QStringLiteral("; ") + note;
    }
    if (data.lengthScaleWasReset()) {
        text += tr("; ℓ reset to auto (the fixed ℓ was chosen for the previous data)");
    }
    emit message(text, 15000);
    return true;
}

QString ProjectFiles::openProject(const QString& path)
{
    m_loading = true;
    const ProjectOpenResult r = sosrep::ui::openProject(path, m_parts);
    m_loading = false;
    emit projectOpened();
    if (!r.error.isEmpty()) {
        emit error(r.error);
        return r.error;
    }
    if (!r.warning.isEmpty()) {
        emit error(r.warning);
    }
    becomeProject(path, tr("Opened project %1: press F5 to fit").arg(path), 8000);
    return {};
}

QString ProjectFiles::saveTo(const QString& path)
{
    const QString e = saveProject(path, m_parts);
    if (!e.isEmpty()) {
        emit error(e);
        return e;
    }
    becomeProject(path, tr("Saved %1").arg(path), 5000);
    return {};
}

void ProjectFiles::openDataInteractively()
{
    const QString path =
        QFileDialog::getOpenFileName(m_window, tr("Open data"), lastFolder(),
                                     tr("Data (*.csv *.tsv *.txt *.npz);;All files (*)"));
    if (!path.isEmpty()) {
        openData(path);
    }
}

void ProjectFiles::openProjectInteractively()
{
    const QString path =
        QFileDialog::getOpenFileName(m_window, tr("Open project"), lastFolder(),
                                     tr("SOSREP Studio project (*.sosrep.json *.json)"));
    if (!path.isEmpty()) {
        openProject(path);
    }
}

void ProjectFiles::saveInteractively()
{
    const QString path = QFileDialog::getSaveFileName(m_window, tr("Save project"), lastFolder(),
                                                      tr("SOSREP Studio project (*.sosrep.json)"));
    if (!path.isEmpty()) {
        saveTo(projectPathFor(path));
    }
}

bool ProjectFiles::saveBeforeClosing()
{
    if (m_projectPath.isEmpty()) {
        saveInteractively();
    } else {
        saveTo(m_projectPath);
    }
    return !m_window->isWindowModified();
}

void ProjectFiles::becomeProject(const QString& path, const QString& text, int milliseconds)
{
    m_projectPath = path;
    rememberFile(path);
    m_window->setWindowModified(false);
    updateTitle();
    emit message(text, milliseconds);
}

void ProjectFiles::updateTitle()
{
    const QString source =
        !m_projectPath.isEmpty() ? m_projectPath : m_parts.session.data().dataSource();
    const QString name = source.isEmpty()                           ? tr("untitled")
                         : source.startsWith(QLatin1String("toy:")) ? source
                                                                    : QFileInfo(source).fileName();
    m_window->setWindowTitle(tr("%1[*] — SOSREP Studio").arg(name));
}

void ProjectFiles::rememberFile(const QString& path)
{
    QSettings settings;
    settings.setValue(QStringLiteral("files/lastFolder"), QFileInfo(path).absolutePath());
    QStringList recent = settings.value(QStringLiteral("files/recent")).toStringList();
    recent.removeAll(QFileInfo(path).absoluteFilePath());
    recent.prepend(QFileInfo(path).absoluteFilePath());
    settings.setValue(QStringLiteral("files/recent"), recent.mid(0, 8));
    rebuildRecentMenu();
}

void ProjectFiles::rebuildRecentMenu()
{
    m_recentMenu->clear();
    const QStringList recent = QSettings().value(QStringLiteral("files/recent")).toStringList();
    for (const QString& path : recent) {
        // Data files and projects in one list; a project says so.
        const QString label = isProjectPath(path)
                                  ? tr("%1 (project)").arg(QFileInfo(path).fileName())
                                  : QFileInfo(path).fileName();
        QAction* a = m_recentMenu->addAction(label);
        a->setToolTip(path);
        connect(a, &QAction::triggered, this, [this, path] {
            if (isProjectPath(path)) {
                openProject(path);
            } else {
                openData(path);
            }
        });
    }
    m_recentMenu->setEnabled(!recent.isEmpty());
}

QStringList ProjectFiles::recentFiles() const
{
    QStringList out;
    for (QAction* a : m_recentMenu->actions()) {
        out << a->toolTip();
    }
    return out;
}

} // namespace sosrep::ui
