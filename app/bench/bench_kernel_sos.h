// SPDX-License-Identifier: MIT
// Benchmark: kernel SoS fits and MMD evaluations, their time and peak memory.
#pragma once

#include "core/types.h"

#include <functional>
#include <string>

namespace sosrep::bench {

/// The process's resident peak (VmHWM) in MB, from /proc.
double peakMemoryMb();

/// One table row: data, N, d, stage, detail, seconds, peak MB, note.
using RowFn = std::function<void(const std::string& data, Eigen::Index n, Eigen::Index d,
                                 const std::string& stage, const std::string& detail,
                                 double seconds, double peakMb, const std::string& note)>;

/// (g) Kernel SoS fits (m = 50, 150 on N = 2000 and 7000 rows) and (h) MMD between 3000
/// held-out rows and models fitted on 7000 (KDE and kernel SoS in closed form, Gaussian SOSREP
/// by Monte Carlo in d = 10). Peak memory is measured from a reset before each row.
void kernelSosAndMmd(const std::string& smallName, const Matrix& small, const std::string& bigName,
                     const Matrix& big, const Matrix& bigTest, int repeats, const RowFn& row);

} // namespace sosrep::bench
