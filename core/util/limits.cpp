// SPDX-License-Identifier: MIT
// Memory limits and checks on matrix sizes before they are allocated.
#include "core/util/limits.h"

#include "core/errors.h"
#include "core/util/text.h"

#include <cmath>
#include <cstdio>

namespace sosrep {

std::string formatBytes(double bytes)
{
    const char* units[] = {"bytes", "kB", "MB", "GB", "TB", "PB", "EB"};
    int u = 0;
    while (bytes >= 1000.0 && u < 6) {
        bytes /= 1000.0;
        ++u;
    }
    return numberText(u == 0 ? std::round(bytes) : bytes, 3) + " " + units[u];
}

void checkMatrixSize(double rows, double cols, const std::string& parameter,
                     const std::string& what)
{
    const double bytes = 8.0 * rows * cols;
    if (!(bytes <= limits::kMaxMatrixBytes)) {
        throw ParameterError(parameter, what + " would need " + formatBytes(bytes) + " (limit " +
                                            formatBytes(limits::kMaxMatrixBytes) +
                                            " per matrix, so that it fits in memory)");
    }
}

} // namespace sosrep
