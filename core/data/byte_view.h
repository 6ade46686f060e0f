// SPDX-License-Identifier: MIT
// A bounds-checked window on the bytes of an untrusted file.
#pragma once

#include "core/errors.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace sosrep {

/// A bounds-checked window on bytes of an untrusted file. Every read checks that it lies inside
/// the window first (in a form that cannot overflow), and throws DataError naming `source` and
/// `what` otherwise, so a crafted length or offset can never make the reader leave the buffer.
class ByteView
{
public:
    ByteView(const unsigned char* data, size_t size, std::string source)
        : m_data(data), m_size(size), m_source(std::move(source))
    {
    }

    size_t size() const { return m_size; }
    const std::string& source() const { return m_source; }

    /// True when [offset, offset + length) lies inside the window.
    bool contains(uint64_t offset, uint64_t length) const
    {
        return offset <= m_size && length <= m_size - offset;
    }

    /// Throws unless [offset, offset + length) lies inside the window.
    void require(uint64_t offset, uint64_t length, const std::string& what) const
    {
        if (!contains(offset, length)) {
            throw DataError(m_source, 0, 0, what + " lies beyond the end of the data");
        }
    }

    /// Little-endian unsigned integer of `bytes` (1..8) bytes at `offset`.
    uint64_t le(uint64_t offset, int bytes, const std::string& what) const
    {
        require(offset, static_cast<uint64_t>(bytes), what);
        uint64_t v = 0;
        for (int i = bytes - 1; i >= 0; --i) {
            v = (v << 8) | m_data[offset + static_cast<uint64_t>(i)];
        }
        return v;
    }

    /// The sub-window [offset, offset + length), checked.
    ByteView sub(uint64_t offset, uint64_t length, const std::string& what) const
    {
        require(offset, length, what);
        return ByteView(m_data + offset, static_cast<size_t>(length), m_source);
    }

    const unsigned char* data() const { return m_data; }

private:
    const unsigned char* m_data;
    size_t m_size;
    std::string m_source;
};

} // namespace sosrep
