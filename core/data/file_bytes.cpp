// SPDX-License-Identifier: MIT
// Reading a whole input file, with checks that name the file.
#include "core/data/file_bytes.h"

#include "core/errors.h"
#include "core/util/limits.h"

#include <filesystem>
#include <fstream>

namespace sosrep {

uint64_t checkInputFile(const std::string& path)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::file_status st = fs::status(path, ec);
    if (ec || !fs::exists(st)) {
        throw DataError(path, 0, 0, "no such file");
    }
    if (fs::is_directory(st)) {
        throw DataError(path, 0, 0, "is a directory, not a data file");
    }
    if (!fs::is_regular_file(st)) {
        throw DataError(path, 0, 0, "is not a regular file");
    }
    const uintmax_t size = fs::file_size(path, ec);
    if (ec) {
        throw DataError(path, 0, 0, "cannot read the file's size: " + ec.message());
    }
    std::ifstream probe(path, std::ios::binary);
    if (!probe) {
        throw DataError(path, 0, 0, "cannot open file for reading (permission denied?)");
    }
    return static_cast<uint64_t>(size);
}

std::vector<unsigned char> readFileBytes(const std::string& path, uint64_t maxBytes)
{
    const uint64_t size = checkInputFile(path);
    if (size > maxBytes) {
        throw DataError(path, 0, 0,
                        "file is " + formatBytes(double(size)) + ", above the reader's limit of " +
                            formatBytes(double(maxBytes)) + " (it is read into memory whole)");
    }
    std::ifstream in(path, std::ios::binary);
    std::vector<unsigned char> bytes(static_cast<size_t>(size));
    if (size > 0 && !in.read(reinterpret_cast<char*>(bytes.data()), static_cast<long>(size))) {
        throw DataError(path, 0, 0, "read error");
    }
    return bytes;
}

} // namespace sosrep
