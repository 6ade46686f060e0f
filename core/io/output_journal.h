// SPDX-License-Identifier: MIT
// The journal of one output set's commit, and the recovery of a commit that was interrupted.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace sosrep::io {

/// One output of a commit: the target, its staged content's temporary name, and the second
/// name its old content gets while the set is renamed in.
struct JournalEntry
{
    std::string target; // absolute paths
    std::string fresh;
    std::string old;
    std::uint64_t freshDevice = 0; // the staged file, to tell new content from old at recovery
    std::uint64_t freshInode = 0;
};

/// How far a commit got, as a database's write-ahead log says it (issue 52, item 4):
/// - Prepared: the names are chosen, nothing replaced yet; recovery removes the temporaries
///   and keeps the old set.
/// - Forward: every new file and every old file's second name exists; recovery renames the
///   remaining new files in (the new set).
/// - Back: a rename failed and the run was putting the old files back; recovery finishes that.
enum class JournalState
{
    Prepared,
    Forward,
    Back
};

/// The journal is written into the folder of every output of the set (`.sosrep-journal-ID.
/// STATE`, whole or not at all: written unnamed, then linked), so that a later run that touches
/// any one of the outputs finds it. A new state is recorded in every folder before the
/// previous one's copies are removed; recovery takes the furthest state any copy records.
class OutputJournal
{
public:
    using StepHook = std::function<void(const std::string&)>;

    OutputJournal(std::vector<JournalEntry> entries, StepHook step);

    /// Records `state` in every folder; throws OutputError when a copy cannot be written.
    void record(JournalState state);
    /// Removes every copy (the commit is finished or undone).
    void remove() noexcept;

    const std::vector<JournalEntry>& entries() const { return m_entries; }

private:
    std::string m_id;
    std::vector<JournalEntry> m_entries;
    std::vector<std::string> m_folders;
    std::vector<std::string> m_written; // copies of the current state
    StepHook m_step;
};

/// The interrupted commits whose journal is in the folder of `target` (the caller holds that
/// folder's lock, so none is a live commit's): each is
/// finished (forward) or undone (prepared, back) by recoverJournal(), then its copies are
/// removed. The caller holds the lock of every target of the journal (`lockTargets` is called
/// with them first and may throw). Afterwards the stray temporaries of `target` of runs that
/// ended without a journal (`.NAME.sosrep-new-*`, `-old-*`, and the named fallback of the
/// staging) are removed. Best effort: a file that cannot be renamed or removed stays.
void recoverOutput(const std::string& target,
                   const std::function<void(const std::vector<std::string>&)>& lockTargets);

/// write() until all of `text` is written (it may write less than asked); false on an error,
/// errno saying which. Shared by the staged outputs and the journal's copies.
bool writeAll(int fd, const std::string& text);

/// Folder sync after renames (durability of the names), best effort.
void syncFolder(const std::string& folder) noexcept;

} // namespace sosrep::io
