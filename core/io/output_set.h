// SPDX-License-Identifier: MIT
// All-or-nothing output: files written to temporaries, then renamed together.
#pragma once

#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace sosrep::io {

/// The outputs of one command, written all or nothing.
///
/// plan() checks each output path before any computation starts (its directory exists and is
/// writable, it is not a directory, it differs from every other output and from every input),
/// so a typo costs nothing. stage() writes the content to an unnamed temporary file in the
/// target's own directory (O_TMPFILE; a named hidden file where the file system lacks it) and
/// flushes it to disk; nothing visible changes. commit() then links each staged file under a
/// temporary name, keeps a second name (a hard link) for every old target, renames each staged
/// file over its target and flushes the directories. A failure before commit() (or an
/// exception that skips it) leaves every old file as it was and no temporary file behind; a
/// failure inside commit() (a target made immutable or turned into a folder since plan())
/// renames the old files back, so the outputs are all old or all new; a `kill -9` at any
/// point leaves no torn file.
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

    /// For tests of the rollback: called with each target just before it is replaced (a test
    /// swaps the target for a folder there, as a user or a race could).
    void setBeforeRename(std::function<void(const std::string&)> hook)
    {
        m_beforeRename = std::move(hook);
    }

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
    };
    Entry* find(const std::string& path);
    static std::string canonicalOf(const std::string& path);
    void discard();
    static std::string sideName(const Entry& e, const char* kind, size_t index);
    void linkStaged();
    void keepOldFiles();
    void rollBack(size_t renamed);

    std::vector<Entry> m_entries;
    bool m_committed = false;
    std::function<void(const std::string&)> m_beforeRename;
};

/// Writing an output failed (disk full, permission changed since plan()).
class OutputError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

} // namespace sosrep::io
