// SPDX-License-Identifier: MIT
// All-or-nothing outputs: staged in unnamed files beside their targets, renamed in together.
#include "core/io/output_set.h"

#include "core/errors.h"
#include "core/io/deferred_signals.h"
#include "core/io/folder_lock.h"
#include "core/io/output_journal.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>

namespace sosrep::io {
namespace {

namespace fs = std::filesystem;

/// The folder a path's file lives in, absolute (the current one for a bare name).
std::string folderOf(const std::string& path)
{
    const fs::path p = fs::absolute(fs::path(path));
    return p.parent_path().string();
}

std::string fileNameOf(const std::string& path)
{
    return fs::path(path).filename().string();
}

std::string errnoText()
{
    return std::strerror(errno);
}

} // namespace

OutputSet::~OutputSet()
{
    discard();
}

std::string OutputSet::canonicalOf(const std::string& path)
{
    std::error_code ec;
    if (fs::exists(path, ec)) {
        const fs::path c = fs::canonical(path, ec);
        if (!ec) {
            return c.string();
        }
    }
    const fs::path dir = fs::canonical(folderOf(path), ec);
    return (ec ? folderOf(path) : dir.string()) + "/" + fileNameOf(path);
}

OutputSet::Entry* OutputSet::find(const std::string& path)
{
    for (Entry& e : m_entries) {
        if (!e.input && e.path == path) {
            return &e;
        }
    }
    return nullptr;
}

bool OutputSet::isPlanned(const std::string& path) const
{
    for (const Entry& e : m_entries) {
        if (!e.input && e.path == path) {
            return true;
        }
    }
    return false;
}

void OutputSet::addInput(const std::string& path, const std::string& option)
{
    Entry e;
    e.path = path;
    e.canonical = canonicalOf(path);
    e.option = option;
    e.input = true;
    for (const Entry& other : m_entries) {
        if (!other.input && other.canonical == e.canonical) {
            throw ParameterError(other.option, path + " is also the input " + option +
                                                   ": it would be overwritten");
        }
    }
    m_entries.push_back(e);
}

void OutputSet::plan(const std::string& path, const std::string& option)
{
    if (path.empty()) {
        throw ParameterError(option, "needs a file name");
    }
    const std::string dir = folderOf(path);
    std::error_code ec;
    if (!fs::exists(dir, ec)) {
        throw ParameterError(option, "the folder " + dir + " of " + path + " does not exist");
    }
    if (!fs::is_directory(dir, ec)) {
        throw ParameterError(option, dir + " is not a folder");
    }
    if (::access(dir.c_str(), W_OK | X_OK) != 0) {
        throw ParameterError(option,
                             "cannot write into the folder " + dir + " (" + errnoText() + ")");
    }
    if (fs::is_directory(path, ec)) {
        throw ParameterError(option, path + " is a folder, not a file");
    }
    // The rename that commits an output would put a regular file in place of a device, pipe or
    // socket: run as root, saving to /dev/full replaced the device itself.
    if (fs::exists(path, ec) && !fs::is_regular_file(path, ec)) {
        throw ParameterError(option, path +
                                         " is not a regular file (a device, pipe or socket): "
                                         "outputs are renamed over their file; give a file name");
    }
    Entry e;
    e.path = path;
    e.canonical = canonicalOf(path);
    e.option = option;
    for (const Entry& other : m_entries) {
        if (other.canonical == e.canonical) {
            throw ParameterError(option, other.input ? path + " is also the input " + other.option +
                                                           ": it would be overwritten"
                                                     : path + " is also given for " + other.option +
                                                           ": each output needs its own file");
        }
    }
    const fs::path folder = fs::canonical(dir, ec);
    e.resolved = (ec ? dir : folder.string()) + "/" + fileNameOf(path);
    struct stat st;
    if (::stat(e.resolved.c_str(), &st) == 0) {
        e.existed = true;
        e.device = st.st_dev;
        e.inode = st.st_ino;
        e.modified = st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec;
    }
    recover(e);
    m_entries.push_back(e);
}

void OutputSet::recover(const Entry& e)
{
    // Under the folder's lock, so that no commit runs beside the recovery; an interrupted set
    // with outputs in other folders locks those too while it is completed or undone.
    const std::string folder = folderOf(e.resolved);
    const FolderLocks locked({folder});
    std::unique_ptr<FolderLocks> others;
    recoverOutput(e.resolved, [&](const std::vector<std::string>& targets) {
        std::vector<std::string> folders;
        for (const std::string& t : targets) {
            if (folderOf(t) != folder) {
                folders.push_back(folderOf(t));
            }
        }
        others = std::make_unique<FolderLocks>(folders);
    });
}

void OutputSet::stage(const std::string& path, const std::string& content)
{
    Entry* e = find(path);
    if (!e) {
        throw std::logic_error("OutputSet::stage: " + path + " was not planned");
    }
    if (e->fd >= 0) {
        throw std::logic_error("OutputSet::stage: " + path + " was staged twice");
    }
    const std::string dir = folderOf(path);
    // An unnamed file in the target's directory: it vanishes with the process unless linked.
    e->fd = ::open(dir.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
    if (e->fd < 0) {
        // File systems without O_TMPFILE: a hidden named file, removed on failure.
        std::string tmpl = dir + "/." + fileNameOf(path) + ".sosrep-XXXXXX";
        std::vector<char> name(tmpl.begin(), tmpl.end());
        name.push_back('\0');
        e->fd = ::mkstemp(name.data());
        if (e->fd < 0) {
            throw OutputError(path + ": cannot create a temporary file beside it (" + errnoText() +
                              ")");
        }
        e->tempName = name.data();
        // mkstemp creates 0600; give the file the permissions a new file would get.
        const mode_t mask = ::umask(0);
        ::umask(mask);
        ::fchmod(e->fd, 0666 & ~mask);
    }
    if (!writeAll(e->fd, content) || ::fsync(e->fd) != 0) {
        throw OutputError(path + ": cannot write (" + errnoText() + ")");
    }
}

std::string OutputSet::sideName(const Entry& e, const char* kind, size_t index)
{
    return folderOf(e.path) + "/." + fileNameOf(e.path) + ".sosrep-" + kind + "-" +
           std::to_string(::getpid()) + "-" + std::to_string(index);
}

void OutputSet::linkStaged()
{
    // Give every staged file a temporary name. A failure here changes no target.
    for (Entry& e : m_entries) {
        if (e.input || e.fd < 0 || !e.tempName.empty()) {
            continue;
        }
        const std::string& temp = e.freshName;
        const std::string proc = "/proc/self/fd/" + std::to_string(e.fd);
        ::unlink(temp.c_str());
        if (::linkat(AT_FDCWD, proc.c_str(), AT_FDCWD, temp.c_str(), AT_SYMLINK_FOLLOW) != 0) {
            throw OutputError(e.path + ": cannot create it (" + errnoText() + ")");
        }
        e.tempName = temp;
    }
}

void OutputSet::keepOldFiles()
{
    // A second name (a hard link: no copy, same directory) for every target that exists, so
    // that a failed rename later can put every earlier target back. A target that cannot be
    // linked (immutable, a folder put in its place) could not be replaced either: stop here,
    // before anything changed.
    for (Entry& e : m_entries) {
        if (e.input || e.fd < 0) {
            continue;
        }
        const std::string& target = e.path;
        struct stat st;
        if (::lstat(target.c_str(), &st) != 0) {
            if (errno == ENOENT) {
                continue; // nothing to keep: a rollback removes the new file
            }
            throw OutputError(e.path + ": cannot replace it (" + errnoText() + ")");
        }
        if (S_ISDIR(st.st_mode)) {
            throw OutputError(e.path + ": cannot replace it (it is now a directory)");
        }
        const std::string& backup = e.oldName;
        ::unlink(backup.c_str());
        if (::link(target.c_str(), backup.c_str()) != 0) {
            throw OutputError(e.path + ": cannot replace it (" + errnoText() + ")");
        }
        e.backupName = backup;
    }
}

void OutputSet::rollBack(size_t renamed)
{
    // Best effort by design: this runs on an error path and must not throw. Each rename is
    // atomic, so every target ends either old or new, never torn.
    size_t done = 0;
    for (Entry& e : m_entries) {
        if (e.input || e.fd < 0) {
            continue;
        }
        if (done++ >= renamed) {
            break;
        }
        if (!e.backupName.empty()) {
            // Should even this fail, the old content stays under its second name (not
            // deleted by discard()): better a stray hidden file than a lost one.
            ::rename(e.backupName.c_str(), e.path.c_str());
            e.backupName.clear();
        } else {
            ::unlink(e.path.c_str()); // it did not exist before this command
        }
    }
}

std::vector<JournalEntry> OutputSet::journalEntries()
{
    std::vector<JournalEntry> journaled;
    size_t index = 0;
    for (Entry& e : m_entries) {
        if (e.input || e.fd < 0) {
            continue;
        }
        JournalEntry j;
        j.target = e.resolved;
        e.freshName = e.tempName.empty() ? sideName(e, "new", index) : e.tempName;
        e.oldName = sideName(e, "old", index);
        j.fresh = e.freshName;
        j.old = e.oldName;
        struct stat st;
        if (::fstat(e.fd, &st) == 0) {
            j.freshDevice = st.st_dev;
            j.freshInode = st.st_ino;
        }
        journaled.push_back(j);
        ++index;
    }
    return journaled;
}

void OutputSet::noteTargetsChangedMeanwhile()
{
    for (const Entry& e : m_entries) {
        if (e.input || e.fd < 0) {
            continue;
        }
        struct stat st;
        const bool exists = ::stat(e.resolved.c_str(), &st) == 0;
        const long long modified =
            exists ? st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec : 0;
        if (exists != e.existed ||
            (exists && (st.st_dev != e.device || st.st_ino != e.inode || modified != e.modified))) {
            m_notes.push_back(e.path + " was " + (exists ? "written" : "removed") +
                              " by another program (another run?) while this one computed; "
                              "this run's " +
                              e.option + " replaced it");
        }
    }
}

std::vector<std::string> OutputSet::renameOverTargets(OutputJournal& journal)
{
    std::vector<std::string> dirs;
    size_t renamed = 0;
    for (Entry& e : m_entries) {
        if (e.input || e.fd < 0) {
            continue;
        }
        if (m_beforeRename) {
            m_beforeRename(e.path);
        }
        if (::rename(e.tempName.c_str(), e.path.c_str()) != 0) {
            const std::string why = errnoText();
            try {
                journal.record(JournalState::Back);
            } catch (const OutputError&) {
                // The forward journal stays: a later run finds this rename failing again and
                // undoes the set the same way.
            }
            rollBack(renamed);
            discard();
            journal.remove();
            throw OutputError(e.path + ": cannot replace it (" + why +
                              "); the other outputs were left as they were");
        }
        e.tempName.clear();
        ++renamed;
        step("renamed " + std::to_string(renamed));
        const std::string dir = folderOf(e.path);
        if (std::find(dirs.begin(), dirs.end(), dir) == dirs.end()) {
            dirs.push_back(dir);
        }
    }
    return dirs;
}

void OutputSet::commit()
{
    // The journal names every file the commit will touch before any is made, so that a run
    // killed at any step can be completed or undone by the next (output_journal.h).
    std::vector<JournalEntry> journaled = journalEntries();
    if (journaled.empty()) {
        m_committed = true;
        return;
    }
    // Sets sharing a folder commit one after the other; a target that changed since plan()
    // was written by someone else meanwhile: said, then replaced.
    std::vector<std::string> folders;
    for (const JournalEntry& j : journaled) {
        folders.push_back(folderOf(j.target));
    }
    std::unique_ptr<FolderLocks> locked;
    try {
        locked = std::make_unique<FolderLocks>(folders);
    } catch (...) {
        discard();
        throw;
    }
    noteTargetsChangedMeanwhile();
    OutputJournal journal(journaled, m_step);
    try {
        journal.record(JournalState::Prepared);
        linkStaged();
        step("linked");
        keepOldFiles();
        step("kept");
    } catch (...) {
        discard();
        journal.remove();
        throw;
    }
    // From here a signal waits for the renames to be done, and a kill is recovered forward.
    const DeferredSignals signalsWait;
    try {
        journal.record(JournalState::Forward);
    } catch (...) {
        discard();
        journal.remove();
        throw;
    }
    const std::vector<std::string> dirs = renameOverTargets(journal);
    for (Entry& e : m_entries) {
        if (!e.backupName.empty()) {
            ::unlink(e.backupName.c_str());
            e.backupName.clear();
        }
        if (!e.input && e.fd >= 0) {
            ::close(e.fd);
            e.fd = -1;
        }
    }
    for (const std::string& dir : dirs) {
        syncFolder(dir);
    }
    step("cleaned");
    journal.remove();
    step("journal removed");
    m_committed = true;
}

void OutputSet::discard()
{
    for (Entry& e : m_entries) {
        if (!e.backupName.empty()) {
            ::unlink(e.backupName.c_str());
            e.backupName.clear();
        }
        if (!e.tempName.empty()) {
            ::unlink(e.tempName.c_str());
            e.tempName.clear();
        }
        if (e.fd >= 0) {
            ::close(e.fd);
            e.fd = -1;
        }
    }
}

} // namespace sosrep::io
