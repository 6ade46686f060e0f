// SPDX-License-Identifier: MIT
// Paths of the shared data sets in tests.
#pragma once

#include <QtTest>

#include <string>

/// Path of a file under shared/datasets/adbench (the repository's sibling folder in CI).
inline std::string adbenchPath(const char* file)
{
    return std::string(SOSREP_SHARED_DIR) + "/datasets/adbench/" + file;
}
