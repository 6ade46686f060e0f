// SPDX-License-Identifier: MIT
// Benchmark helpers: programs beside the benchmark, run as their own processes.
#pragma once

#include <string>
#include <vector>

namespace sosrep::bench {

/// A child process's run: wall seconds, peak resident memory (its own, sampled every 20 ms) and
/// its standard output; seconds negative when it could not start or failed.
struct ChildRun
{
    double seconds = -1.0;
    double peakMb = 0.0;
    std::string output;
};

ChildRun runChild(const std::vector<std::string>& args);

/// The directory of this executable (sosrep and sosrep-studio are built beside it).
std::string ownDirectory();

} // namespace sosrep::bench
