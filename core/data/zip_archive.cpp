// SPDX-License-Identifier: MIT
// A minimal, bounds-checked ZIP reader (stored and deflated members via zlib) for .npz files.
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

/// One central-directory record, with the zip64 sizes and offset applied.
struct CentralEntry
{
    std::string label; // "central directory entry k", for messages
    std::string name;
    uint64_t flags = 0;
    uint64_t method = 0;
    uint32_t crc = 0;
    uint64_t csize = 0;
    uint64_t usize = 0;
    uint64_t localOffset = 0;
};

/// Reads the record at *p of the central directory and advances *p past it.
CentralEntry readEntry(const ByteView& cd, uint64_t* p, uint64_t index)
{
    CentralEntry e;
    e.label = "central directory entry " + std::to_string(index + 1);
    const uint64_t at = *p;
    if (cd.le(at, 4, e.label) != kCentralHeader) {
        throw DataError(cd.source(), 0, 0, "corrupt zip central directory (" + e.label + ")");
    }
    e.flags = cd.le(at + 8, 2, e.label);
    e.method = cd.le(at + 10, 2, e.label);
    e.crc = static_cast<uint32_t>(cd.le(at + 16, 4, e.label));
    e.csize = cd.le(at + 20, 4, e.label);
    e.usize = cd.le(at + 24, 4, e.label);
    const uint64_t nameLen = cd.le(at + 28, 2, e.label);
    const uint64_t extraLen = cd.le(at + 30, 2, e.label);
    const uint64_t commentLen = cd.le(at + 32, 2, e.label);
    e.localOffset = cd.le(at + 42, 4, e.label);
    const ByteView name = cd.sub(at + 46, nameLen, "the file name of " + e.label);
    const ByteView extra = cd.sub(at + 46 + nameLen, extraLen, "the extra field of " + e.label);
    cd.require(at + 46 + nameLen + extraLen, commentLen, "the comment of " + e.label);
    *p = at + 46 + nameLen + extraLen + commentLen;
    e.name.assign(reinterpret_cast<const char*>(name.data()), name.size());
    // zip64 extended information (id 0x0001): the saturated 32-bit fields, in this order.
    const std::string what = "a zip64 extra field of " + e.label;
    for (uint64_t q = 0; q + 4 <= extra.size();) {
        const uint64_t id = extra.le(q, 2, what);
        const uint64_t len = extra.le(q + 2, 2, what);
        const ByteView field = extra.sub(q + 4, len, what);
        if (id == 0x0001) {
            uint64_t r = 0;
            for (uint64_t* v : {&e.usize, &e.csize, &e.localOffset}) {
                if (*v == kSaturated32) {
                    *v = field.le(r, 8, what);
                    r += 8;
                }
            }
        }
        q += 4 + len;
    }
    return e;
}

/// The member's bytes: its local header checked, its data inflated (or copied) and sized
/// exactly as declared, after the declared size passed every bound.
std::vector<unsigned char> extract(const ByteView& zip, const CentralEntry& e,
                                   uint64_t maxMemberBytes, const std::string& source)
{
    if (e.flags & 1u) {
        throw DataError(source, 0, 0, "encrypted zip members are not supported");
    }
    if (e.usize > maxMemberBytes) {
        throw DataError(source, 0, 0,
                        "member declares " + formatBytes(double(e.usize)) +
                            " uncompressed, above the reader's limit of " +
                            formatBytes(double(maxMemberBytes)));
    }
    const std::string local = "the local header of " + e.label;
    if (zip.le(e.localOffset, 4, local) != kLocalHeader) {
        throw DataError(source, 0, 0, "corrupt zip local header");
    }
    const uint64_t dataOffset = e.localOffset + 30 + zip.le(e.localOffset + 26, 2, local) +
                                zip.le(e.localOffset + 28, 2, local);
    const ByteView data = zip.sub(dataOffset, e.csize, "the data of " + e.label);
    if (e.method == 0) {
        if (e.csize != e.usize) {
            throw DataError(source, 0, 0,
                            "stored member declares " + std::to_string(e.usize) +
                                " bytes but holds " + std::to_string(e.csize) +
                                ": the archive is corrupt");
        }
        return std::vector<unsigned char>(data.data(), data.data() + data.size());
    }
    if (e.method != 8) {
        throw DataError(source, 0, 0,
                        "unsupported zip compression method " + std::to_string(e.method) +
                            " (stored and deflate are supported)");
    }
    // Deflate cannot expand more than 1032:1 (258-byte matches coded in 2 bits); a larger
    // declared size is a lie, refused before allocating it.
    if (e.usize > 1032 * e.csize + 1024) {
        throw DataError(source, 0, 0,
                        "member declares " + std::to_string(e.usize) + " bytes from " +
                            std::to_string(e.csize) +
                            " compressed, more than deflate can expand to: the archive is "
                            "corrupt");
    }
    return inflateExactly(data, e.usize, source);
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
        const CentralEntry e = readEntry(cd, &p, k);
        ZipMember m;
        m.name = e.name;
        m.source = zip.source() + "[" + oneLine(m.name, 80) + "]";
        if (m.name.empty()) {
            throw DataError(zip.source(), 0, 0, "corrupt zip: " + e.label + " has no name");
        }
        if (!names.insert(m.name).second) {
            throw DataError(m.source, 0, 0, "the archive holds two members of this name");
        }
        m.bytes = extract(zip, e, maxMemberBytes, m.source);
        if (crcOf(m.bytes) != e.crc) {
            throw DataError(m.source, 0, 0, "CRC mismatch: the archive is corrupt");
        }
        out.push_back(std::move(m));
    }
    return out;
}

} // namespace sosrep
