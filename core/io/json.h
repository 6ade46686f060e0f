// SPDX-License-Identifier: MIT
// JSON reading with located errors, and byte-stable writing (nlohmann-json underneath).
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

namespace sosrep::io {

/// The JSON value of the file formats. nlohmann-json: Debian ships it (nlohmann-json3-dev),
/// header-only, with exact round trips of doubles and 64-bit integers, and objects sorted by
/// key (std::map), the order the files have always been written in.
using Json = nlohmann::json;

/// Parses a JSON document whose top level must be an object. Throws DataError naming `source`
/// with the line and column of a syntax error, and refuses a key given twice in one object (a
/// reader would silently take one of them).
Json parseJsonObject(std::string_view bytes, const std::string& source);

/// The document as the files have always been written (by Qt's QJsonDocument, before the formats
/// moved here), byte for byte: compact `{"a":1}`, or indented with four spaces per level and a
/// final newline. Doubles in the shortest form that reads back exactly, as Qt chose between
/// fixed and exponent notation ("0.001", "1e-05", "2000", "1e+08"); integers as integers.
std::string jsonCompact(const Json& value);
std::string jsonIndented(const Json& value);

/// Lenient readers of a member, as the formats have always read fields whose absence has a
/// meaning: the member `key` of an object (a null value when absent or `o` is no object), an
/// object member as an object (empty when absent or of another type), a value as text (empty
/// when it is no string). Strict readers check types themselves and name the field.
const Json& member(const Json& o, const char* key);
Json objectOf(const Json& o, const char* key);
std::string textOf(const Json& v);

/// A double as jsonCompact writes it.
std::string jsonNumber(double value);

} // namespace sosrep::io
