// SPDX-License-Identifier: MIT
// Number and text formatting for messages.
#include "core/util/text.h"

#include <charconv>
#include <cstdio>

namespace sosrep {

namespace {

/// Whether byte i belongs to a well-formed UTF-8 sequence: a stray byte (Latin-1 text, a cut
/// character) would print as garbage, so it is escaped instead.
bool inSequence(std::string_view text, size_t i)
{
    size_t lead = i;
    while (lead > 0 && i - lead < 3 && (static_cast<unsigned char>(text[lead]) & 0xC0) == 0x80) {
        --lead;
    }
    const auto b = static_cast<unsigned char>(text[lead]);
    const size_t length = (b >> 5) == 0x6 ? 2 : (b >> 4) == 0xE ? 3 : (b >> 3) == 0x1E ? 4 : 0;
    if (length == 0 || lead + length <= i || lead + length > text.size()) {
        return false;
    }
    for (size_t k = lead + 1; k < lead + length; ++k) {
        if ((static_cast<unsigned char>(text[k]) & 0xC0) != 0x80) {
            return false;
        }
    }
    return true;
}

} // namespace

std::string oneLine(std::string_view text, size_t maxChars)
{
    std::string out;
    size_t chars = 0;
    for (size_t i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        // UTF-8 continuation bytes go with their lead byte: the limit counts characters, and a
        // cut never falls inside a multi-byte character.
        if ((c & 0xC0) != 0x80) {
            if (chars == maxChars) {
                out += "...";
                break;
            }
            ++chars;
        }
        if (c < 0x20 || c == 0x7F || (c >= 0x80 && !inSequence(text, i))) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\x%02X", c);
            out += buf;
        } else {
            out += static_cast<char>(c);
        }
    }
    return out;
}

std::string quotedText(std::string_view text, size_t maxChars)
{
    return "'" + oneLine(text, maxChars) + "'";
}

std::string quotedNear(std::string_view text, size_t at, size_t maxChars)
{
    size_t chars = 0;
    for (const char c : text) {
        chars += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    }
    if (chars <= maxChars) {
        return quotedText(text, maxChars);
    }
    size_t start = at > maxChars / 2 ? at - maxChars / 2 : 0;
    while (start > 0 && (static_cast<unsigned char>(text[start]) & 0xC0) == 0x80) {
        --start; // never start inside a multi-byte character
    }
    return std::string("'") + (start > 0 ? "..." : "") + oneLine(text.substr(start), maxChars) +
           "'";
}

std::string numberText(double v)
{
    char buf[32];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, r.ptr);
}

std::string numberText(double v, int significant)
{
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::general, significant);
    return std::string(buf, r.ptr);
}

} // namespace sosrep
