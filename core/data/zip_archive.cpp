// SPDX-License-Identifier: MIT
#include "core/data/zip_archive.h"

#include "core/util/limits.h"
#include "core/util/text.h"

#include <zlib.h>

#include <algorithm>
#include <climits>
#include <set>

namespace sosrep {
namespace {

constexpr uint32_t kLocalHeader = 0x04034b50;
constexpr uint32_t kCentralHeader = 0x02014b50;
constexpr uint32_t kEndOfDirectory = 0x06054b50;
constexpr uint32_t kZip64Locator = 0x07064b50;
constexpr uint32_t kZip64EndOfDirectory = 0x06064b50;
constexpr uint64_t kSaturated32 = 0xFFFFFFFFu;

struct Directory
{
    uint64_t entries = 0;
    uint64_t offset = 0;
    uint64_t size = 0;
};

/// The end-of-central-directory record, searched from the back (it is followed by a comment of
/// at most 65535 bytes), and its zip64 counterpart when the 32-bit fields are saturated.
Directory findDirectory(const ByteView& zip)
{
    if (zip.size() < 22) {
        throw DataError(zip.source(), 0, 0, "not a .npz archive (too short for a zip file)");
    }
    uint64_t eocd = UINT64_MAX;
    const uint64_t last = zip.size() - 22;
    const uint64_t first = last > 65535 ? last - 65535 : 0;
    for (uint64_t p = last + 1; p-- > first;) {
        if (zip.le(p, 4, "end-of-directory record") == kEndOfDirectory) {
            eocd = p;
            break;
        }
    }
    if (eocd == UINT64_MAX) {
        throw DataError(zip.source(), 0, 0, "not a .npz archive (no zip end-of-directory record)");
    }
    Directory dir;
    dir.entries = zip.le(eocd + 10, 2, "end-of-directory record");
    dir.size = zip.le(eocd + 12, 4, "end-of-directory record");
    dir.offset = zip.le(eocd + 16, 4, "end-of-directory record");
    if (dir.entries == 0xFFFF || dir.size == kSaturated32 || dir.offset == kSaturated32) {
        if (eocd < 20 || zip.le(eocd - 20, 4, "zip64 locator") != kZip64Locator) {
            throw DataError(zip.source(), 0, 0, "corrupt zip: zip64 locator missing");
        }
        const uint64_t z = zip.le(eocd - 20 + 8, 8, "zip64 locator");
        if (zip.le(z, 4, "zip64 end-of-directory record") != kZip64EndOfDirectory) {
            throw DataError(zip.source(), 0, 0, "corrupt zip: bad zip64 end-of-directory record");
        }
        dir.entries = zip.le(z + 32, 8, "zip64 end-of-directory record");
        dir.size = zip.le(z + 40, 8, "zip64 end-of-directory record");
        dir.offset = zip.le(z + 48, 8, "zip64 end-of-directory record");
    }
    zip.require(dir.offset, dir.size, "the central directory");
    // Each entry takes at least 46 bytes: a larger count cannot be true.
    if (dir.entries > dir.size / 46) {
        throw DataError(zip.source(), 0, 0,
                        "corrupt zip: " + std::to_string(dir.entries) +
                            " entries cannot fit in a central directory of " +
                            std::to_string(dir.size) + " bytes");
    }
    return dir;
}

/// Inflates a raw deflate stream into exactly `size` bytes; refuses streams that end early,
/// run past `size`, or are corrupt. Works in chunks, so sizes beyond 4 GB are fine for zlib.
std::vector<unsigned char> inflateExactly(const ByteView& in, uint64_t size,
                                          const std::string& source)
{
    // One spare byte: output that does not fit means the member lies about its size.
    std::vector<unsigned char> out(static_cast<size_t>(size) + 1);
    z_stream zs{};
    if (inflateInit2(&zs, -MAX_WBITS) != Z_OK) {
        throw DataError(source, 0, 0, "zlib initialisation failed");
    }
    uint64_t consumed = 0;
    uint64_t produced = 0;
    int rc = Z_OK;
    for (;;) {
        if (zs.avail_in == 0 && consumed < in.size()) {
            const uint64_t chunk = std::min<uint64_t>(in.size() - consumed, UINT_MAX);
            zs.next_in = const_cast<Bytef*>(in.data() + consumed);
            zs.avail_in = static_cast<uInt>(chunk);
            consumed += chunk;
        }
        if (zs.avail_out == 0) {
            const uint64_t chunk = std::min<uint64_t>(out.size() - produced, UINT_MAX);
            if (chunk == 0) {
                break; // even the spare byte is used: more output than declared
            }
            zs.next_out = out.data() + produced;
            zs.avail_out = static_cast<uInt>(chunk);
            produced += chunk;
        }
        rc = inflate(&zs, Z_NO_FLUSH);
        if (rc != Z_OK) {
            break; // Z_STREAM_END, or no progress possible (input ended early), or corrupt data
        }
    }
    const uint64_t total = produced - zs.avail_out;
    inflateEnd(&zs);
    if (total > size) {
        throw DataError(source, 0, 0,
                        "member inflates to more than its declared " + std::to_string(size) +
                            " bytes: the archive is corrupt");
    }
    if (rc != Z_STREAM_END) {
        throw DataError(source, 0, 0, "deflate data is corrupt or truncated");
    }
    if (total != size) {
        throw DataError(source, 0, 0,
                        "member inflates to " + std::to_string(total) + " bytes but declares " +
                            std::to_string(size) + ": the archive is corrupt");
    }
    out.resize(static_cast<size_t>(size));
    return out;
}

uint32_t crcOf(const std::vector<unsigned char>& bytes)
{
    uLong crc = crc32_z(0L, Z_NULL, 0);
    return static_cast<uint32_t>(bytes.empty() ? crc : crc32_z(crc, bytes.data(), bytes.size()));
}

} // namespace

std::vector<ZipMember> readZipMembers(const ByteView& zip, uint64_t maxMemberBytes)
{
    const Directory dir = findDirectory(zip);
    const ByteView cd = zip.sub(dir.offset, dir.size, "the central directory");
    std::vector<ZipMember> out;
    std::set<std::string> names;
    uint64_t p = 0;
    for (uint64_t k = 0; k < dir.entries; ++k) {
        const std::string entry = "central directory entry " + std::to_string(k + 1);
        if (cd.le(p, 4, entry) != kCentralHeader) {
            throw DataError(zip.source(), 0, 0, "corrupt zip central directory (" + entry + ")");
        }
        const uint64_t flags = cd.le(p + 8, 2, entry);
        const uint64_t method = cd.le(p + 10, 2, entry);
        const auto crc = static_cast<uint32_t>(cd.le(p + 16, 4, entry));
        uint64_t csize = cd.le(p + 20, 4, entry);
        uint64_t usize = cd.le(p + 24, 4, entry);
        const uint64_t nameLen = cd.le(p + 28, 2, entry);
        const uint64_t extraLen = cd.le(p + 30, 2, entry);
        const uint64_t commentLen = cd.le(p + 32, 2, entry);
        uint64_t localOffset = cd.le(p + 42, 4, entry);
        const ByteView nameBytes = cd.sub(p + 46, nameLen, "the file name of " + entry);
        const ByteView extra = cd.sub(p + 46 + nameLen, extraLen, "the extra field of " + entry);
        cd.require(p + 46 + nameLen + extraLen, commentLen, "the comment of " + entry);
        p += 46 + nameLen + extraLen + commentLen;

        ZipMember m;
        m.name.assign(reinterpret_cast<const char*>(nameBytes.data()), nameBytes.size());
        m.source = zip.source() + "[" + oneLine(m.name, 80) + "]";
        if (m.name.empty()) {
            throw DataError(zip.source(), 0, 0, "corrupt zip: " + entry + " has no name");
        }
        if (!names.insert(m.name).second) {
            throw DataError(m.source, 0, 0, "the archive holds two members of this name");
        }
        // zip64 extended information (id 0x0001): the saturated 32-bit fields, in this order.
        for (uint64_t q = 0; q + 4 <= extra.size();) {
            const uint64_t id = extra.le(q, 2, "extra field");
            const uint64_t len = extra.le(q + 2, 2, "extra field");
            const ByteView field = extra.sub(q + 4, len, "a zip64 extra field of " + entry);
            if (id == 0x0001) {
                uint64_t r = 0;
                for (uint64_t* v : {&usize, &csize, &localOffset}) {
                    if (*v == kSaturated32) {
                        *v = field.le(r, 8, "a zip64 extra field of " + entry);
                        r += 8;
                    }
                }
            }
            q += 4 + len;
        }
        if (flags & 1u) {
            throw DataError(m.source, 0, 0, "encrypted zip members are not supported");
        }
        if (usize > maxMemberBytes) {
            throw DataError(m.source, 0, 0,
                            "member declares " + formatBytes(double(usize)) +
                                " uncompressed, above the reader's limit of " +
                                formatBytes(double(maxMemberBytes)));
        }
        if (zip.le(localOffset, 4, "the local header of " + entry) != kLocalHeader) {
            throw DataError(m.source, 0, 0, "corrupt zip local header");
        }
        const uint64_t dataOffset = localOffset + 30 +
                                    zip.le(localOffset + 26, 2, "the local header of " + entry) +
                                    zip.le(localOffset + 28, 2, "the local header of " + entry);
        const ByteView data = zip.sub(dataOffset, csize, "the data of " + entry);
        if (method == 0) {
            if (csize != usize) {
                throw DataError(m.source, 0, 0,
                                "stored member declares " + std::to_string(usize) +
                                    " bytes but holds " + std::to_string(csize) +
                                    ": the archive is corrupt");
            }
            m.bytes.assign(data.data(), data.data() + data.size());
        } else if (method == 8) {
            // Deflate cannot expand more than 1032:1 (258-byte matches coded in 2 bits); a
            // larger declared size is a lie, refused before allocating it.
            if (usize > 1032 * csize + 1024) {
                throw DataError(m.source, 0, 0,
                                "member declares " + std::to_string(usize) + " bytes from " +
                                    std::to_string(csize) +
                                    " compressed, more than deflate can expand to: the archive "
                                    "is corrupt");
            }
            m.bytes = inflateExactly(data, usize, m.source);
        } else {
            throw DataError(m.source, 0, 0,
                            "unsupported zip compression method " + std::to_string(method) +
                                " (stored and deflate are supported)");
        }
        if (crcOf(m.bytes) != crc) {
            throw DataError(m.source, 0, 0, "CRC mismatch: the archive is corrupt");
        }
        out.push_back(std::move(m));
    }
    return out;
}

} // namespace sosrep
