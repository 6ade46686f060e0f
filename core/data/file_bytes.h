// SPDX-License-Identifier: MIT
// Reading a whole input file, with checks that name the file.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace sosrep {

/// Checks that `path` names a readable regular file (not a directory, not missing) and returns
/// its size; throws DataError naming the file otherwise.
uint64_t checkInputFile(const std::string& path);

/// Reads a whole file, refusing files above `maxBytes` before reading (DataError naming the
/// file, its size and the limit).
std::vector<unsigned char> readFileBytes(const std::string& path, uint64_t maxBytes);

} // namespace sosrep
