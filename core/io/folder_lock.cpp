// SPDX-License-Identifier: MIT
// flock on output folders, polled with a deadline.
#include "core/io/folder_lock.h"

#include "core/io/output_set.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <sys/file.h>
#include <thread>
#include <unistd.h>

namespace sosrep::io {

FolderLocks::FolderLocks(std::vector<std::string> folders, double seconds)
{
    std::sort(folders.begin(), folders.end());
    folders.erase(std::unique(folders.begin(), folders.end()), folders.end());
    const auto deadline = std::chrono::steady_clock::now() +
                          std::chrono::milliseconds(static_cast<long long>(seconds * 1000.0));
    for (const std::string& folder : folders) {
        const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (fd < 0) {
            const std::string why = std::strerror(errno);
            release();
            throw OutputError(folder + ": cannot open the folder to lock it (" + why + ")");
        }
        m_fds.push_back(fd);
        // Polled rather than blocking: a stopped process holding the lock must not hang us.
        while (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
            if (errno != EWOULDBLOCK && errno != EINTR) {
                const std::string why = std::strerror(errno);
                release();
                throw OutputError(folder + ": cannot lock the folder (" + why + ")");
            }
            if (std::chrono::steady_clock::now() > deadline) {
                release();
                throw OutputError(folder + ": another run kept the folder locked for " +
                                  std::to_string(static_cast<int>(seconds)) +
                                  " s while writing its outputs; nothing was replaced");
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
    }
}

FolderLocks::~FolderLocks()
{
    release();
}

void FolderLocks::release() noexcept
{
    for (int fd : m_fds) {
        ::close(fd); // drops the lock
    }
    m_fds.clear();
}

} // namespace sosrep::io
