// SPDX-License-Identifier: MIT
// The .npy array format: header, dtypes and byte order, parsed from bytes.
#include "core/data/npy_array.h"

#include "core/util/limits.h"
#include "core/util/text.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <map>

namespace sosrep {
namespace {

/// The header dict, e.g. {'descr': '<f8', 'fortran_order': False, 'shape': (3, 2), }, read as
/// a Python literal: string keys; values that are strings, names (True/False) or int tuples.
class HeaderParser
{
public:
    HeaderParser(std::string text, std::string source)
        : m_s(std::move(text)), m_source(std::move(source))
    {
    }

    std::map<std::string, std::string> parse()
    {
        std::map<std::string, std::string> out;
        expect('{');
        for (;;) {
            skipSpace();
            if (peek() == '}') {
                ++m_pos;
                return out;
            }
            const std::string key = string();
            expect(':');
            skipSpace();
            out[key] = value();
            skipSpace();
            if (peek() == ',') {
                ++m_pos;
            } else if (peek() != '}') {
                fail("expected ',' or '}' after the value of '" + key + "'");
            }
        }
    }

private:
    char peek() const { return m_pos < m_s.size() ? m_s[m_pos] : '\0'; }
    void skipSpace()
    {
        while (m_pos < m_s.size() && (m_s[m_pos] == ' ' || m_s[m_pos] == '\t')) {
            ++m_pos;
        }
    }
    [[noreturn]] void fail(const std::string& what) const
    {
        throw DataError(m_source, 0, 0, "malformed .npy header: " + what);
    }
    void expect(char c)
    {
        skipSpace();
        if (peek() != c) {
            fail(std::string("expected '") + c + "' at offset " + std::to_string(m_pos));
        }
        ++m_pos;
    }
    std::string string()
    {
        const char q = peek();
        if (q != '\'' && q != '"') {
            fail("expected a quoted key at offset " + std::to_string(m_pos));
        }
        const size_t end = m_s.find(q, m_pos + 1);
        if (end == std::string::npos) {
            fail("unterminated string");
        }
        std::string out = m_s.substr(m_pos + 1, end - m_pos - 1);
        m_pos = end + 1;
        return out;
    }
    /// A value as text: strings without their quotes, tuples and lists with their brackets,
    /// names and numbers as they stand.
    std::string value()
    {
        const char c = peek();
        if (c == '\'' || c == '"') {
            return string();
        }
        if (c == '(' || c == '[') {
            const char close = c == '(' ? ')' : ']';
            int depth = 0;
            const size_t start = m_pos;
            for (; m_pos < m_s.size(); ++m_pos) {
                if (m_s[m_pos] == c) {
                    ++depth;
                } else if (m_s[m_pos] == close && --depth == 0) {
                    ++m_pos;
                    return m_s.substr(start, m_pos - start);
                }
            }
            fail("unterminated tuple or list");
        }
        const size_t start = m_pos;
        while (m_pos < m_s.size() && m_s[m_pos] != ',' && m_s[m_pos] != '}') {
            ++m_pos;
        }
        std::string out = m_s.substr(start, m_pos - start);
        while (!out.empty() && out.back() == ' ') {
            out.pop_back();
        }
        return out;
    }

    std::string m_s;
    std::string m_source;
    size_t m_pos = 0;
};

/// "(3, 2)", "(5,)" or "()" as dimensions.
std::vector<size_t> parseShape(const std::string& text, const std::string& source)
{
    auto bad = [&] { return DataError(source, 0, 0, "malformed .npy shape " + quotedText(text)); };
    if (text.size() < 2 || text.front() != '(' || text.back() != ')') {
        throw bad();
    }
    std::vector<size_t> shape;
    const char* p = text.data() + 1;
    const char* end = text.data() + text.size() - 1;
    for (;;) {
        while (p < end && *p == ' ') {
            ++p;
        }
        if (p == end) {
            break;
        }
        uint64_t v = 0;
        const auto r = std::from_chars(p, end, v);
        if (r.ec != std::errc()) {
            throw bad();
        }
        shape.push_back(static_cast<size_t>(v));
        p = r.ptr;
        while (p < end && *p == ' ') {
            ++p;
        }
        if (p < end && *p == ',') {
            ++p;
        } else if (p != end) {
            throw bad();
        }
    }
    return shape;
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

using Loader = double (*)(const unsigned char*, bool);

Loader loaderFor(char kind, int size)
{
    switch (kind) {
    case 'f':
        return size == 8 ? &loadAs<double> : size == 4 ? &loadAs<float> : nullptr;
    case 'i':
        return size == 8   ? &loadAs<int64_t>
               : size == 4 ? &loadAs<int32_t>
               : size == 2 ? &loadAs<int16_t>
               : size == 1 ? &loadAs<int8_t>
                           : nullptr;
    case 'u':
        return size == 8   ? &loadAs<uint64_t>
               : size == 4 ? &loadAs<uint32_t>
               : size == 2 ? &loadAs<uint16_t>
               : size == 1 ? &loadAs<uint8_t>
                           : nullptr;
    case 'b':
        return size == 1 ? &loadAs<uint8_t> : nullptr;
    default:
        return nullptr;
    }
}

/// The element count of `shape`, checked against the `available` elements factor by factor,
/// so a crafted shape such as (2^61, 8) cannot wrap the product around. A zero dimension
/// holds no elements whatever the others say (the reader of X then says "empty"; counting the
/// other factors first reported a (5, 0) array as truncated).
uint64_t checkedCount(const std::vector<size_t>& shape, uint64_t available,
                      const std::string& source)
{
    if (std::find(shape.begin(), shape.end(), size_t(0)) != shape.end()) {
        return 0;
    }
    uint64_t count = 1;
    for (size_t dim : shape) {
        if (count > available / dim) {
            std::string s;
            for (size_t v : shape) {
                s += (s.empty() ? "" : ", ") + std::to_string(v);
            }
            throw DataError(source, 0, 0,
                            "array data truncated: shape (" + s +
                                ") needs more elements than the " + std::to_string(available) +
                                " present");
        }
        count *= dim;
    }
    if (8.0 * double(count) > limits::kMaxMatrixBytes) {
        throw DataError(source, 0, 0,
                        "array of " + std::to_string(count) + " values would need " +
                            formatBytes(8.0 * double(count)) + " as doubles (limit " +
                            formatBytes(limits::kMaxMatrixBytes) + ")");
    }
    return count;
}

/// The element loader of a dtype such as "<f8", and its byte size; unsupported ones refused.
Loader loaderOf(const std::string& dt, int& size, const std::string& source)
{
    const bool sizeOk =
        dt.size() >= 3 &&
        std::from_chars(dt.data() + 2, dt.data() + dt.size(), size).ptr == dt.data() + dt.size();
    const Loader load = sizeOk ? loaderFor(dt[1], size) : nullptr;
    if (!load || (dt[0] != '<' && dt[0] != '>' && dt[0] != '|' && dt[0] != '=')) {
        throw DataError(source, 0, 0,
                        "unsupported dtype " + quotedText(dt) +
                            " (supported: f8 f4 i8 i4 i2 i1 u8 u4 u2 u1 b1)");
    }
    return load;
}

/// The elements as doubles, row-major (Fortran order, where the first index varies fastest,
/// converted).
void loadValues(NpyArray& arr, const unsigned char* data, Loader load, size_t step, bool swap,
                bool fortran)
{
    if (!fortran || arr.shape.size() < 2) {
        for (size_t k = 0; k < arr.values.size(); ++k) {
            arr.values[k] = load(data + k * step, swap);
        }
        return;
    }
    const size_t rows = arr.shape[0];
    const size_t cols = arr.shape[1];
    for (size_t j = 0; j < cols; ++j) {
        for (size_t i = 0; i < rows; ++i) {
            arr.values[i * cols + j] = load(data + (j * rows + i) * step, swap);
        }
    }
}

} // namespace

NpyArray parseNpy(const ByteView& bytes)
{
    const std::string& source = bytes.source();
    static const unsigned char magic[] = {0x93, 'N', 'U', 'M', 'P', 'Y'};
    if (bytes.size() < 10 || std::memcmp(bytes.data(), magic, 6) != 0) {
        throw DataError(source, 0, 0, "not a .npy array (bad magic bytes)");
    }
    const int major = bytes.data()[6];
    if (major < 1 || major > 3) {
        throw DataError(source, 0, 0, "unsupported .npy format version " + std::to_string(major));
    }
    const int lenBytes = major == 1 ? 2 : 4;
    const uint64_t headerLen = bytes.le(8, lenBytes, "the .npy header length");
    const uint64_t headerStart = 8 + static_cast<uint64_t>(lenBytes);
    const ByteView headerBytes = bytes.sub(headerStart, headerLen, "the .npy header");
    const std::map<std::string, std::string> header =
        HeaderParser(
            std::string(reinterpret_cast<const char*>(headerBytes.data()), headerBytes.size()),
            source)
            .parse();
    auto entry = [&](const char* key) -> const std::string& {
        const auto it = header.find(key);
        if (it == header.end()) {
            throw DataError(source, 0, 0, std::string("npy header has no '") + key + "' entry");
        }
        return it->second;
    };
    NpyArray arr;
    arr.dtype = entry("descr");
    const std::string& fortranText = entry("fortran_order");
    if (fortranText != "True" && fortranText != "False") {
        throw DataError(source, 0, 0,
                        "npy header: fortran_order must be True or False, not " +
                            quotedText(fortranText));
    }
    const bool fortran = fortranText == "True";
    arr.shape = parseShape(entry("shape"), source);
    int size = 0;
    const Loader load = loaderOf(arr.dtype, size, source);
    const uint64_t dataStart = headerStart + headerLen;
    const uint64_t count =
        checkedCount(arr.shape, (bytes.size() - dataStart) / static_cast<uint64_t>(size), source);
    if (fortran && arr.shape.size() > 2) {
        throw DataError(source, 0, 0, "Fortran-order arrays of more than 2 dimensions");
    }
    arr.values.resize(static_cast<size_t>(count));
    loadValues(arr, bytes.data() + dataStart, load, static_cast<size_t>(size), arr.dtype[0] == '>',
               fortran);
    return arr;
}

NpyArray parseNpy(const std::vector<unsigned char>& bytes, const std::string& source)
{
    return parseNpy(ByteView(bytes.data(), bytes.size(), source));
}

} // namespace sosrep
