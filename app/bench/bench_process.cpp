// SPDX-License-Identifier: MIT
// Benchmark helpers: programs beside the benchmark, run as their own processes.
#include "app/bench/bench_process.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fcntl.h>
#include <fstream>
#include <poll.h>
#include <spawn.h>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace sosrep::bench {
namespace {

/// VmHWM of a running process in MB (0 once it has ended).
double residentPeakMb(pid_t pid)
{
    std::ifstream status("/proc/" + std::to_string(pid) + "/status");
    std::string line;
    while (std::getline(status, line)) {
        if (line.rfind("VmHWM:", 0) == 0) {
            return std::atof(line.c_str() + 6) / 1024.0; // kB
        }
    }
    return 0.0;
}

} // namespace

ChildRun runChild(const std::vector<std::string>& args)
{
    ChildRun run;
    int pipeFds[2];
    if (pipe(pipeFds) != 0) {
        return run;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, pipeFds[1], STDOUT_FILENO);
    posix_spawn_file_actions_addclose(&actions, pipeFds[0]);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
    std::vector<char*> argv;
    for (const std::string& a : args) {
        argv.push_back(const_cast<char*>(a.c_str()));
    }
    argv.push_back(nullptr);
    const auto t0 = std::chrono::steady_clock::now();
    pid_t pid = 0;
    const int spawned = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    close(pipeFds[1]);
    if (spawned != 0) {
        close(pipeFds[0]);
        return run;
    }
    // The child's peak from its own /proc entry, sampled while it runs: its rusage would count
    // this process's resident memory too (the spawned child shares our address space until it
    // runs its program, and the kernel keeps the larger high-water mark).
    char buf[4096];
    pollfd reader = {pipeFds[0], POLLIN, 0};
    for (;;) {
        run.peakMb = std::max(run.peakMb, residentPeakMb(pid));
        if (poll(&reader, 1, 20) > 0) {
            const ssize_t got = read(pipeFds[0], buf, sizeof buf);
            if (got <= 0) {
                break;
            }
            run.output.append(buf, size_t(got));
        }
    }
    close(pipeFds[0]);
    // After the pipe closed the child may still run a moment: sample until it has ended.
    int status = 0;
    while (waitpid(pid, &status, WNOHANG) == 0) {
        run.peakMb = std::max(run.peakMb, residentPeakMb(pid));
        usleep(20000);
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }
    return run;
}

std::string ownDirectory()
{
    char buf[4096];
    const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    std::string path = n > 0 ? std::string(buf, size_t(n)) : std::string(".");
    const size_t slash = path.rfind('/');
    return slash == std::string::npos ? "." : path.substr(0, slash);
}

} // namespace sosrep::bench
