// SPDX-License-Identifier: MIT
#include "core/util/text.h"

#include <cstdio>

namespace sosrep {

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
        if (c < 0x20 || c == 0x7F) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\x%02X", c);
            out += buf;
        } else {
            out += static_cast<char>(c);
        }
    }
    return out;
}

std::string quoted(std::string_view text, size_t maxChars)
{
    return "'" + oneLine(text, maxChars) + "'";
}

} // namespace sosrep
