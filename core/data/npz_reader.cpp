// SPDX-License-Identifier: MIT
// .npz archives (X, y) as datasets, read from a file or from bytes.
#include "core/data/npz_reader.h"

#include "core/data/file_bytes.h"
#include "core/data/zip_archive.h"
#include "core/errors.h"
#include "core/util/limits.h"

#include <cmath>

namespace sosrep {

std::map<std::string, NpyArray> readNpzBytes(const unsigned char* data, size_t size,
                                             const std::string& source)
{
    const ByteView zip(data, size, source);
    std::map<std::string, NpyArray> out;
    for (ZipMember& m : readZipMembers(zip, limits::kMaxNpzMemberBytes)) {
        std::string name = m.name;
        if (name.size() > 4 && name.compare(name.size() - 4, 4, ".npy") == 0) {
            name.resize(name.size() - 4);
        }
        const ByteView payload(m.bytes.data(), m.bytes.size(), m.source);
        out[name] = parseNpy(payload);
        m.bytes = {}; // free each member once converted
    }
    return out;
}

std::map<std::string, NpyArray> readNpz(const std::string& path)
{
    const std::vector<unsigned char> bytes = readFileBytes(path, limits::kMaxInputFileBytes);
    return readNpzBytes(bytes.data(), bytes.size(), path);
}

Dataset readNpzDataset(const std::string& path)
{
    return npzDataset(readNpz(path), path);
}

Dataset npzDataset(const std::map<std::string, NpyArray>& arrays, const std::string& path)
{
    const auto xi = arrays.find("X");
    if (xi == arrays.end()) {
        throw DataError(path, 0, 0, "archive has no array named 'X' (ADBench layout: X, y)");
    }
    const NpyArray& xa = xi->second;
    if (xa.shape.empty() || xa.shape.size() > 2) {
        throw DataError(path, 0, 0, "array 'X' must be 1-D or 2-D");
    }
    const size_t n = xa.shape[0];
    const size_t d = xa.shape.size() == 2 ? xa.shape[1] : 1;
    if (n == 0 || d == 0) {
        throw DataError(path, 0, 0,
                        "array 'X' is empty (" + std::to_string(n) + " rows, " + std::to_string(d) +
                            " columns)");
    }
    Dataset ds;
    ds.source = path;
    ds.x.resize(static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(d));
    for (size_t i = 0; i < n; ++i) {
        for (size_t j = 0; j < d; ++j) {
            const double v = xa.values[i * d + j];
            if (!std::isfinite(v)) {
                throw DataError(path + "[X]", static_cast<long>(i) + 1, static_cast<long>(j) + 1,
                                "non-finite value in X (row " + std::to_string(i + 1) +
                                    ", column " + std::to_string(j + 1) + ")");
            }
            ds.x(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) = v;
        }
    }
    for (size_t j = 0; j < d; ++j) {
        ds.columns.push_back("x" + std::to_string(j + 1));
    }
    const auto yi = arrays.find("y");
    if (yi != arrays.end()) {
        const NpyArray& ya = yi->second;
        const bool column = ya.shape.size() == 1 || (ya.shape.size() == 2 && ya.shape[1] == 1);
        if (!column || ya.values.size() != n) {
            throw DataError(path, 0, 0,
                            "array 'y' has " + std::to_string(ya.values.size()) +
                                " entries but X has " + std::to_string(n) +
                                " rows (it must be a vector of one label per row)");
        }
        Eigen::VectorXi y(static_cast<Eigen::Index>(n));
        for (size_t i = 0; i < n; ++i) {
            const double v = ya.values[i];
            if (v != 0.0 && v != 1.0) {
                throw DataError(path + "[y]", static_cast<long>(i) + 1, 1,
                                "labels must be 0 (normal) or 1 (anomaly)");
            }
            y(static_cast<Eigen::Index>(i)) = static_cast<int>(v);
        }
        ds.labels = y;
        ds.labelName = "y";
    }
    return ds;
}

} // namespace sosrep
