// SPDX-License-Identifier: MIT
// Advisory locks on output folders, held while a set of outputs is committed or recovered.
#pragma once

#include <string>
#include <vector>

namespace sosrep::io {

/// `flock` on each of a set of folders (the folders themselves: no lock file to leave behind
/// when a process is killed; the kernel drops its locks). Taken in sorted order, so two sets
/// sharing folders cannot deadlock, and held for the milliseconds of a commit or a recovery:
/// two runs writing the same outputs commit one after the other, never interleaved (issue 52,
/// item 5), while runs writing other files into the same folder are not refused.
class FolderLocks
{
public:
    /// Waits up to `seconds` for every folder; throws OutputError naming the folder that
    /// another process kept locked.
    explicit FolderLocks(std::vector<std::string> folders, double seconds = 60.0);
    ~FolderLocks();
    FolderLocks(const FolderLocks&) = delete;
    FolderLocks& operator=(const FolderLocks&) = delete;

private:
    void release() noexcept;
    std::vector<int> m_fds;
};

} // namespace sosrep::io
