// SPDX-License-Identifier: MIT
#include "core/data/npz_reader.h"

#include "core/errors.h"

#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>

namespace sosrep {
namespace {

uint64_t readLe(const unsigned char* p, int bytes)
{
    uint64_t v = 0;
    for (int i = bytes - 1; i >= 0; --i) {
        v = (v << 8) | p[i];
    }
    return v;
}

/// Finds `key` in a Python-dict-literal header and returns the text of its value.
std::string headerValue(const std::string& header, const std::string& key,
                        const std::string& source)
{
    const std::string quoted = "'" + key + "'";
    auto pos = header.find(quoted);
    if (pos == std::string::npos) {
        throw DataError(source, 0, 0, "npy header has no '" + key + "' entry");
    }
    pos = header.find(':', pos + quoted.size());
    if (pos == std::string::npos) {
        throw DataError(source, 0, 0, "npy header entry '" + key + "' has no value");
    }
    ++pos;
    while (pos < header.size() && header[pos] == ' ') {
        ++pos;
    }
    size_t end = pos;
    if (header[pos] == '(') {
        end = header.find(')', pos);
        if (end == std::string::npos) {
            throw DataError(source, 0, 0, "npy header: unterminated shape tuple");
        }
        return header.substr(pos, end - pos + 1);
    }
    if (header[pos] == '\'') {
        end = header.find('\'', pos + 1);
        return header.substr(pos + 1, end - pos - 1);
    }
    end = header.find_first_of(",}", pos);
    return header.substr(pos, end - pos);
}

template <typename T> double loadAs(const unsigned char* p, bool swap)
{
    unsigned char buf[sizeof(T)];
    std::memcpy(buf, p, sizeof(T));
    if (swap) {
        std::reverse(buf, buf + sizeof(T));
    }
    T v;
    std::memcpy(&v, buf, sizeof(T));
    return static_cast<double>(v);
}

} // namespace

NpyArray parseNpy(const std::vector<unsigned char>& bytes, const std::string& source)
{
    static const unsigned char magic[] = {0x93, 'N', 'U', 'M', 'P', 'Y'};
    if (bytes.size() < 10 || std::memcmp(bytes.data(), magic, 6) != 0) {
        throw DataError(source, 0, 0, "not a .npy array (bad magic bytes)");
    }
    const int major = bytes[6];
    size_t headerLen = 0;
    size_t offset = 0;
    if (major == 1) {
        headerLen = readLe(&bytes[8], 2);
        offset = 10;
    } else if (major == 2 || major == 3) {
        if (bytes.size() < 12) {
            throw DataError(source, 0, 0, "truncated .npy header");
        }
        headerLen = readLe(&bytes[8], 4);
        offset = 12;
    } else {
        throw DataError(source, 0, 0, "unsupported .npy format version " + std::to_string(major));
    }
    if (offset + headerLen > bytes.size()) {
        throw DataError(source, 0, 0, "truncated .npy header");
    }
    const std::string header(bytes.begin() + static_cast<long>(offset),
                             bytes.begin() + static_cast<long>(offset + headerLen));
    NpyArray arr;
    arr.dtype = headerValue(header, "descr", source);
    const bool fortran = headerValue(header, "fortran_order", source) == "True";
    const std::string shapeText = headerValue(header, "shape", source);
    size_t count = 1;
    for (size_t i = 1; i < shapeText.size();) {
        while (i < shapeText.size() && !std::isdigit(static_cast<unsigned char>(shapeText[i]))) {
            ++i;
        }
        if (i >= shapeText.size()) {
            break;
        }
        size_t v = 0;
        while (i < shapeText.size() && std::isdigit(static_cast<unsigned char>(shapeText[i]))) {
            v = v * 10 + static_cast<size_t>(shapeText[i] - '0');
            ++i;
        }
        arr.shape.push_back(v);
        count *= v;
    }
    if (arr.dtype.size() < 3) {
        throw DataError(source, 0, 0, "unsupported dtype '" + arr.dtype + "'");
    }
    const char order = arr.dtype[0];
    const char kind = arr.dtype[1];
    const int size = std::atoi(arr.dtype.c_str() + 2);
    if (order != '<' && order != '>' && order != '|' && order != '=') {
        throw DataError(source, 0, 0, "unsupported dtype '" + arr.dtype + "'");
    }
    const bool swap = order == '>';
    using Loader = double (*)(const unsigned char*, bool);
    Loader load = nullptr;
    if (kind == 'f' && size == 8) {
        load = &loadAs<double>;
    } else if (kind == 'f' && size == 4) {
        load = &loadAs<float>;
    } else if (kind == 'i' && size == 8) {
        load = &loadAs<int64_t>;
    } else if (kind == 'i' && size == 4) {
        load = &loadAs<int32_t>;
    } else if (kind == 'i' && size == 2) {
        load = &loadAs<int16_t>;
    } else if (kind == 'i' && size == 1) {
        load = &loadAs<int8_t>;
    } else if (kind == 'u' && size == 8) {
        load = &loadAs<uint64_t>;
    } else if (kind == 'u' && size == 4) {
        load = &loadAs<uint32_t>;
    } else if (kind == 'u' && size == 2) {
        load = &loadAs<uint16_t>;
    } else if ((kind == 'u' || kind == 'b') && size == 1) {
        load = &loadAs<uint8_t>;
    } else {
        throw DataError(source, 0, 0,
                        "unsupported dtype '" + arr.dtype +
                            "' (supported: f8 f4 i8 i4 i2 i1 u8 u4 u2 u1 b1)");
    }
    const size_t dataStart = offset + headerLen;
    if (bytes.size() < dataStart + count * static_cast<size_t>(size)) {
        throw DataError(source, 0, 0,
                        "array data truncated: expected " + std::to_string(count) + " elements");
    }
    arr.values.resize(count);
    const unsigned char* data = bytes.data() + dataStart;
    if (!fortran || arr.shape.size() < 2) {
        for (size_t k = 0; k < count; ++k) {
            arr.values[k] = load(data + k * static_cast<size_t>(size), swap);
        }
    } else {
        // Fortran order: the first index varies fastest. Convert to row-major for 2-D arrays.
        if (arr.shape.size() != 2) {
            throw DataError(source, 0, 0, "Fortran-order arrays of more than 2 dimensions");
        }
        const size_t rows = arr.shape[0];
        const size_t cols = arr.shape[1];
        for (size_t j = 0; j < cols; ++j) {
            for (size_t i = 0; i < rows; ++i) {
                arr.values[i * cols + j] =
                    load(data + (j * rows + i) * static_cast<size_t>(size), swap);
            }
        }
    }
    return arr;
}

std::map<std::string, NpyArray> readNpz(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        throw DataError(path, 0, 0, "cannot open file for reading");
    }
    const std::vector<unsigned char> zip((std::istreambuf_iterator<char>(in)),
                                         std::istreambuf_iterator<char>());
    // Locate the end-of-central-directory record (signature 0x06054b50) from the back.
    if (zip.size() < 22) {
        throw DataError(path, 0, 0, "not a .npz archive (too short for a zip file)");
    }
    long eocd = -1;
    for (long p = static_cast<long>(zip.size()) - 22;
         p >= 0 && p >= static_cast<long>(zip.size()) - 65557; --p) {
        if (readLe(&zip[static_cast<size_t>(p)], 4) == 0x06054b50) {
            eocd = p;
            break;
        }
    }
    if (eocd < 0) {
        throw DataError(path, 0, 0, "not a .npz archive (no zip end-of-directory record)");
    }
    const unsigned char* e = &zip[static_cast<size_t>(eocd)];
    const size_t entries = readLe(e + 10, 2);
    size_t cdOffset = readLe(e + 16, 4);
    std::map<std::string, NpyArray> out;
    size_t p = cdOffset;
    for (size_t k = 0; k < entries; ++k) {
        if (p + 46 > zip.size() || readLe(&zip[p], 4) != 0x02014b50) {
            throw DataError(path, 0, 0, "corrupt zip central directory");
        }
        const unsigned char* c = &zip[p];
        const int method = static_cast<int>(readLe(c + 10, 2));
        const uint32_t crc = static_cast<uint32_t>(readLe(c + 16, 4));
        uint64_t csize = readLe(c + 20, 4);
        uint64_t usize = readLe(c + 24, 4);
        const size_t nameLen = readLe(c + 28, 2);
        const size_t extraLen = readLe(c + 30, 2);
        const size_t commentLen = readLe(c + 32, 2);
        uint64_t localOffset = readLe(c + 42, 4);
        std::string name(reinterpret_cast<const char*>(c + 46), nameLen);
        // zip64: sizes/offset of 0xFFFFFFFF are stored in the extra field with id 0x0001.
        for (size_t q = 46 + nameLen; q + 4 <= 46 + nameLen + extraLen;) {
            const size_t id = readLe(c + q, 2);
            const size_t len = readLe(c + q + 2, 2);
            if (id == 0x0001) {
                size_t r = q + 4;
                if (usize == 0xFFFFFFFFu) {
                    usize = readLe(c + r, 8);
                    r += 8;
                }
                if (csize == 0xFFFFFFFFu) {
                    csize = readLe(c + r, 8);
                    r += 8;
                }
                if (localOffset == 0xFFFFFFFFu) {
                    localOffset = readLe(c + r, 8);
                }
            }
            q += 4 + len;
        }
        p += 46 + nameLen + extraLen + commentLen;

        const std::string member = path + "[" + name + "]";
        if (localOffset + 30 > zip.size() || readLe(&zip[localOffset], 4) != 0x04034b50) {
            throw DataError(member, 0, 0, "corrupt zip local header");
        }
        const size_t dataOffset = localOffset + 30 + readLe(&zip[localOffset + 26], 2) +
                                  readLe(&zip[localOffset + 28], 2);
        if (dataOffset + csize > zip.size()) {
            throw DataError(member, 0, 0, "zip member truncated");
        }
        std::vector<unsigned char> bytes(usize);
        if (method == 0) {
            std::memcpy(bytes.data(), &zip[dataOffset], usize);
        } else if (method == 8) {
            z_stream zs{};
            if (inflateInit2(&zs, -MAX_WBITS) != Z_OK) {
                throw DataError(member, 0, 0, "zlib initialisation failed");
            }
            zs.next_in = const_cast<Bytef*>(&zip[dataOffset]);
            zs.avail_in = static_cast<uInt>(csize);
            zs.next_out = bytes.data();
            zs.avail_out = static_cast<uInt>(usize);
            const int rc = inflate(&zs, Z_FINISH);
            inflateEnd(&zs);
            if (rc != Z_STREAM_END || zs.total_out != usize) {
                throw DataError(member, 0, 0, "deflate data is corrupt");
            }
        } else {
            throw DataError(member, 0, 0,
                            "unsupported zip compression method " + std::to_string(method));
        }
        if (crc32(0L, bytes.data(), static_cast<uInt>(bytes.size())) != crc) {
            throw DataError(member, 0, 0, "CRC mismatch: the archive is corrupt");
        }
        if (name.size() > 4 && name.compare(name.size() - 4, 4, ".npy") == 0) {
            name.resize(name.size() - 4);
        }
        out[name] = parseNpy(bytes, member);
    }
    return out;
}

Dataset readNpzDataset(const std::string& path)
{
    const auto arrays = readNpz(path);
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
        if (ya.values.size() != n) {
            throw DataError(path, 0, 0,
                            "array 'y' has " + std::to_string(ya.values.size()) +
                                " entries but X has " + std::to_string(n) + " rows");
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
