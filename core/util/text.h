// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <string_view>

namespace sosrep {

/// User text as it may appear inside a one-line error message: in single quotes, control bytes
/// (NUL, newline, escape...) written as \xNN so they can neither cut nor break the line, and at
/// most `maxChars` characters with "..." after a longer text (a 1 MB field must not make a 1 MB
/// message).
std::string quoted(std::string_view text, size_t maxChars = 40);

/// The same without the quotes, for whole messages: control bytes escaped, at most `maxChars`.
std::string oneLine(std::string_view text, size_t maxChars = 600);

} // namespace sosrep
