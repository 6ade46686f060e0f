// SPDX-License-Identifier: MIT
// Commit journal of an output set: written whole into every output folder, read back by the
// next run that touches one of the outputs.
#include "core/io/output_journal.h"

#include "core/io/json.h"
#include "core/io/output_set.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

namespace sosrep::io {
namespace {

namespace fs = std::filesystem;

constexpr const char* kPrefix = ".sosrep-journal-";
constexpr const char* kJournalFormat = "sosrep-commit-journal";

const char* stateName(JournalState s)
{
    switch (s) {
    case JournalState::Prepared:
        return "prepared";
    case JournalState::Forward:
        return "forward";
    case JournalState::Back:
        return "back";
    }
    return "prepared";
}

bool stateNamed(const std::string& name, JournalState* out)
{
    for (JournalState s : {JournalState::Prepared, JournalState::Forward, JournalState::Back}) {
        if (name == stateName(s)) {
            *out = s;
            return true;
        }
    }
    return false;
}

std::string copyPath(const std::string& folder, const std::string& id, JournalState s)
{
    return folder + "/" + kPrefix + id + "." + stateName(s);
}

/// Writes `text` under `path` so that it appears whole or not at all: an unnamed file linked
/// in (a named `.part` file renamed in where the file system has no O_TMPFILE).
bool writeWhole(const std::string& folder, const std::string& path, const std::string& text)
{
    int fd = ::open(folder.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0644);
    const bool unnamed = fd >= 0;
    const std::string part = path + ".part";
    if (!unnamed) {
        fd = ::open(part.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (fd < 0) {
            return false;
        }
    }
    bool ok = writeAll(fd, text) && ::fsync(fd) == 0;
    if (ok && unnamed) {
        const std::string proc = "/proc/self/fd/" + std::to_string(fd);
        ::unlink(path.c_str());
        ok = ::linkat(AT_FDCWD, proc.c_str(), AT_FDCWD, path.c_str(), AT_SYMLINK_FOLLOW) == 0;
    } else if (ok) {
        ok = ::rename(part.c_str(), path.c_str()) == 0;
    }
    ::close(fd);
    if (!ok && !unnamed) {
        ::unlink(part.c_str());
    }
    return ok;
}

Json toJson(const std::string& id, JournalState state, const std::vector<std::string>& folders,
            const std::vector<JournalEntry>& entries)
{
    Json list = Json::array();
    for (const JournalEntry& e : entries) {
        list.push_back(Json{{"target", e.target},
                            {"fresh", e.fresh},
                            {"old", e.old},
                            {"fresh_device", e.freshDevice},
                            {"fresh_inode", e.freshInode}});
    }
    return Json{{"format", kJournalFormat},  {"version", 1},       {"id", id},
                {"state", stateName(state)}, {"folders", folders}, {"entries", list}};
}

struct ReadJournal
{
    std::string id;
    JournalState state = JournalState::Prepared;
    std::vector<std::string> folders;
    std::vector<JournalEntry> entries;
};

/// A journal copy, or false when it is not one this version wrote (left alone).
bool readCopy(const std::string& path, ReadJournal* out)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        return false;
    }
    std::stringstream text;
    text << in.rdbuf();
    try {
        const Json j = parseJsonObject(text.str(), path);
        if (textOf(member(j, "format")) != kJournalFormat ||
            !stateNamed(j.at("state"), &out->state)) {
            return false;
        }
        out->id = j.at("id").get<std::string>();
        out->folders = j.at("folders").get<std::vector<std::string>>();
        for (const Json& e : j.at("entries")) {
            JournalEntry entry;
            entry.target = e.at("target").get<std::string>();
            entry.fresh = e.at("fresh").get<std::string>();
            entry.old = e.at("old").get<std::string>();
            entry.freshDevice = e.at("fresh_device").get<std::uint64_t>();
            entry.freshInode = e.at("fresh_inode").get<std::uint64_t>();
            out->entries.push_back(entry);
        }
        return true;
    } catch (const std::exception&) {
        return false;
    }
}

bool exists(const std::string& path)
{
    struct stat st;
    return ::lstat(path.c_str(), &st) == 0;
}

/// The old set: second names back under the targets, new content removed.
void rollBack(const std::vector<JournalEntry>& entries)
{
    for (const JournalEntry& e : entries) {
        if (exists(e.old)) {
            // Renaming a second name of the target's own file changes nothing and keeps both
            // names: the unlink below removes the second one then.
            ::rename(e.old.c_str(), e.target.c_str());
            ::unlink(e.old.c_str());
        } else {
            struct stat st;
            if (::lstat(e.target.c_str(), &st) == 0 && st.st_ino == e.freshInode &&
                st.st_dev == e.freshDevice) {
                ::unlink(e.target.c_str()); // the target did not exist before the commit
            }
        }
        ::unlink(e.fresh.c_str());
    }
}

/// The new set: the remaining new files renamed in; false when one could not be.
bool rollForward(const std::vector<JournalEntry>& entries)
{
    for (const JournalEntry& e : entries) {
        if (exists(e.fresh) && ::rename(e.fresh.c_str(), e.target.c_str()) != 0) {
            return false;
        }
    }
    for (const JournalEntry& e : entries) {
        ::unlink(e.old.c_str());
    }
    return true;
}

std::string parentOf(const std::string& path)
{
    return fs::path(path).parent_path().string();
}

/// The suffix of a stray temporary of `name` (`.NAME.sosrep-` + new-*, old-*, or the six
/// characters of mkstemp), or false.
bool isStrayOf(const std::string& file, const std::string& name)
{
    const std::string head = "." + name + ".sosrep-";
    if (file.compare(0, head.size(), head) != 0) {
        return false;
    }
    const std::string rest = file.substr(head.size());
    return rest.rfind("new-", 0) == 0 || rest.rfind("old-", 0) == 0 ||
           (rest.size() == 6 && rest != "lock");
}

} // namespace

void syncFolder(const std::string& folder) noexcept
{
    const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        ::fsync(fd);
        ::close(fd);
    }
}

bool writeAll(int fd, const std::string& text)
{
    const char* data = text.data();
    size_t size = text.size();
    while (size > 0) {
        const ssize_t n = ::write(fd, data, size);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            return false;
        }
        data += n;
        size -= static_cast<size_t>(n);
    }
    return true;
}

OutputJournal::OutputJournal(std::vector<JournalEntry> entries, StepHook step)
    : m_entries(std::move(entries)), m_step(std::move(step))
{
    static std::atomic<int> sequence{0};
    m_id = std::to_string(::getpid()) + "-" + std::to_string(sequence++);
    for (const JournalEntry& e : m_entries) {
        const std::string folder = parentOf(e.target);
        if (std::find(m_folders.begin(), m_folders.end(), folder) == m_folders.end()) {
            m_folders.push_back(folder);
        }
    }
}

void OutputJournal::record(JournalState state)
{
    const std::string text = jsonIndented(toJson(m_id, state, m_folders, m_entries));
    std::vector<std::string> written;
    for (size_t i = 0; i < m_folders.size(); ++i) {
        const std::string path = copyPath(m_folders[i], m_id, state);
        if (!writeWhole(m_folders[i], path, text)) {
            const std::string why = std::strerror(errno);
            for (const std::string& w : written) {
                ::unlink(w.c_str());
            }
            throw OutputError(path + ": cannot write the outputs' commit journal (" + why + ")");
        }
        syncFolder(m_folders[i]);
        written.push_back(path);
        if (m_step) {
            m_step(std::string("journal ") + stateName(state) + " " + std::to_string(i + 1));
        }
    }
    for (const std::string& w : m_written) {
        ::unlink(w.c_str());
    }
    m_written = written;
}

void OutputJournal::remove() noexcept
{
    for (const std::string& w : m_written) {
        ::unlink(w.c_str());
    }
    m_written.clear();
    for (const std::string& folder : m_folders) {
        syncFolder(folder);
    }
}

void recoverOutput(const std::string& target,
                   const std::function<void(const std::vector<std::string>&)>& lockTargets)
{
    const std::string folder = parentOf(target);
    const std::string name = fs::path(target).filename().string();
    std::error_code ec;
    // The journals of this folder that name the target, by id.
    std::map<std::string, ReadJournal> found;
    std::vector<std::string> strays;
    for (const fs::directory_entry& d : fs::directory_iterator(folder, ec)) {
        const std::string file = d.path().filename().string();
        if (isStrayOf(file, name)) {
            strays.push_back(d.path().string());
        }
        ReadJournal j;
        if (file.rfind(kPrefix, 0) != 0 || !readCopy(d.path().string(), &j)) {
            continue;
        }
        // Every journal of the folder, whatever it names: a commit writes its journal only
        // while it holds its folders' locks, and the caller holds this folder's, so no live
        // commit owns one.
        found.emplace(j.id, j);
    }
    for (auto& [id, j] : found) {
        std::vector<std::string> targets;
        for (const JournalEntry& e : j.entries) {
            targets.push_back(e.target);
        }
        lockTargets(targets);
        // The furthest state any folder's copy records.
        JournalState state = j.state;
        for (const std::string& f : j.folders) {
            for (JournalState s : {JournalState::Forward, JournalState::Back}) {
                if (s > state && exists(copyPath(f, id, s))) {
                    state = s;
                }
            }
        }
        if (state != JournalState::Forward || !rollForward(j.entries)) {
            rollBack(j.entries);
        }
        for (const std::string& f : j.folders) {
            syncFolder(f);
        }
        for (const std::string& f : j.folders) {
            for (JournalState s :
                 {JournalState::Prepared, JournalState::Forward, JournalState::Back}) {
                ::unlink(copyPath(f, id, s).c_str());
            }
            syncFolder(f);
        }
    }
    // Temporaries of runs that ended before they wrote a journal, or whose journal is done:
    // this run holds the target's lock, so no live run owns them.
    for (const std::string& stray : strays) {
        ::unlink(stray.c_str());
    }
}

} // namespace sosrep::io
