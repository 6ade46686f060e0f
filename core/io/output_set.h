// SPDX-License-Identifier: MIT
// All-or-nothing output: files written to temporaries, then renamed together.
#pragma once

#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace sosrep::io {

struct JournalEntry;
class OutputJournal;

/// The outputs of one command, written all or nothing.
///
/// plan() checks each output path before any computation starts (its directory exists and is
/// writable, it is not a directory, it differs from every other output and from every input),
/// so a typo costs nothing. It also recovers an earlier run's interrupted commit that involved
/// the output (OutputJournal), removing that run's temporary files. stage() writes the content to
/// an unnamed temporary file in the target's own directory (O_TMPFILE; a named hidden file where
/// the file system lacks it) and flushes it to disk; nothing visible changes. commit() then links
/// each staged file under a temporary name, keeps a second name (a hard link) for every old target,
/// renames each staged file over its target and flushes the directories. A failure before commit()
/// (or an exception that skips it) leaves every old file as it was and no temporary file behind; a
/// failure inside commit() (a target made immutable or turned into a folder since plan())
/// renames the old files back, so the outputs are all old or all new. The renames are
/// preceded by a journal (output_journal.h): a `kill -9` or a power cut at any point leaves a
/// set that the next run touching any of its outputs completes or undoes. SIGINT, SIGTERM and
/// SIGHUP wait until the renames are done (DeferredSignals).
///
/// Errors: plan() throws ParameterError naming the option; stage() and commit() throw
/// OutputError naming the file.
class OutputSet
{
public:
    OutputSet() = default;
    OutputSet(const OutputSet&) = delete;
    OutputSet& operator=(const OutputSet&) = delete;
    ~OutputSet();

    /// Declares an input file, which no output may overwrite.
    void addInput(const std::string& path, const std::string& option);
    /// Declares an output for `option` (e.g. "--scores-out") and checks it (see above).
    void plan(const std::string& path, const std::string& option);
    /// Writes the content of a planned output to its staged temporary file.
    void stage(const std::string& path, const std::string& content);
    /// Makes every staged output visible under its name.
    void commit();

    bool isPlanned(const std::string& path) const;

    /// What commit() has to say: outputs another program wrote between plan() and commit()
    /// (another run of the same command, say), which this set replaced. Commits of sets that
    /// share folders run one after the other (FolderLocks), so sets never interleave.
    const std::vector<std::string>& notes() const { return m_notes; }

    /// For tests of the rollback: called with each target just before it is replaced (a test
    /// swaps the target for a folder there, as a user or a race could).
    void setBeforeRename(std::function<void(const std::string&)> hook)
    {
        m_beforeRename = std::move(hook);
    }
    /// For fault-injection tests: called after each step of commit() ("journal prepared 1",
    /// "linked", "kept", "journal forward 1", "renamed 1", ..., "cleaned", "journal removed"),
    /// where a test kills the process.
    void setStepHook(std::function<void(const std::string&)> hook) { m_step = std::move(hook); }

private:
    struct Entry
    {
        std::string path;      // as given
        std::string canonical; // directory resolved, for comparisons
        std::string option;
        bool input = false;
        int fd = -1;            // staged content (unnamed file, or named temporary below)
        std::string tempName;   // the staged file's temporary name (named fallback, commit)
        std::string backupName; // the old target's second name during commit()
        std::string freshName;  // the names commit() journals for tempName and backupName
        std::string oldName;
        std::string resolved; // folder resolved, file name as given (a link is replaced)
        /// The target as plan() found it, to tell whether another program wrote it since.
        bool existed = false;
        unsigned long long device = 0, inode = 0;
        long long modified = 0; // ns
    };
    Entry* find(const std::string& path);
    static std::string canonicalOf(const std::string& path);
    void discard();
    static std::string sideName(const Entry& e, const char* kind, size_t index);
    /// Names every file the commit will touch (new, old and target names) for the journal.
    std::vector<JournalEntry> journalEntries();
    /// Notes the targets another program wrote or removed since plan() (they are replaced).
    void noteTargetsChangedMeanwhile();
    /// Renames each staged file over its target (atomic per file, within one directory); on
    /// a failure puts back the targets already replaced, so the outputs stay all old or all
    /// new, and throws. Returns the folders written, to be synced.
    std::vector<std::string> renameOverTargets(OutputJournal& journal);
    void linkStaged();
    void keepOldFiles();
    void rollBack(size_t renamed);
    void recover(const Entry& e);
    void step(const std::string& name) const
    {
        if (m_step) {
            m_step(name);
        }
    }

    std::vector<Entry> m_entries;
    bool m_committed = false;
    std::function<void(const std::string&)> m_beforeRename;
    std::function<void(const std::string&)> m_step;
    std::vector<std::string> m_notes;
};

/// Writing an output failed (disk full, permission changed since plan()).
class OutputError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

} // namespace sosrep::io
