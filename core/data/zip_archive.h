// SPDX-License-Identifier: MIT
// A minimal, bounds-checked ZIP reader (stored and deflated members via zlib) for .npz files.
#pragma once

#include "core/data/byte_view.h"

#include <cstdint>
#include <string>
#include <vector>

namespace sosrep {

/// One member of a zip archive, inflated and CRC-checked.
struct ZipMember
{
    std::string name;
    std::string source; // "archive[name]", for messages
    std::vector<unsigned char> bytes;
};

/// Extracts every member of a zip archive held in memory (stored or deflate members; zip64
/// sizes, offsets and end-of-directory records understood; encrypted members refused).
///
/// The archive is untrusted: every offset and length it declares is checked against the buffer
/// before use, a member's declared size is checked against `maxMemberBytes` before anything is
/// allocated, and a member that inflates to more or less than it declares is refused. Anything
/// malformed throws DataError naming the archive (and the member).
std::vector<ZipMember> readZipMembers(const ByteView& zip, uint64_t maxMemberBytes);

} // namespace sosrep
