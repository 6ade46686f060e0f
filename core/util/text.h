// SPDX-License-Identifier: MIT
// Number and text formatting for messages.
#pragma once

#include <string>
#include <string_view>

namespace sosrep {

/// User text as it may appear inside a one-line error message: in single quotes, control bytes
/// (NUL, newline, escape...) written as \xNN so they can neither cut nor break the line, and at
/// most `maxChars` characters with "..." after a longer text (a 1 MB field must not make a 1 MB
/// message).
std::string quotedText(std::string_view text, size_t maxChars = 40);

/// Like quotedText(), but a longer text is shown as the window of `maxChars` characters around
/// byte `at` ("'...x1 + * 2...'"), so the message shows where the error is.
std::string quotedNear(std::string_view text, size_t at, size_t maxChars = 40);

/// A number as text in the C locale whatever the process's locale (std::to_string and printf
/// follow LC_NUMERIC: "-2,000000" under a German locale): the shortest text that reads back
/// to `v`, or `significant` digits in %g style.
std::string numberText(double v);
std::string numberText(double v, int significant);

/// The same without the quotes, for whole messages: control bytes escaped, at most `maxChars`.
std::string oneLine(std::string_view text, size_t maxChars = 600);

} // namespace sosrep
