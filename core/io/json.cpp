// SPDX-License-Identifier: MIT
// The file formats' JSON: nlohmann-json read with line and column and repeated-key checks,
// written byte for byte as Qt's QJsonDocument wrote the files.
#include "core/io/json.h"

#include "core/errors.h"

#include <charconv>
#include <cmath>
#include <set>
#include <vector>

namespace sosrep::io {
namespace {

/// Line and column (both from 1) of a byte offset.
std::pair<long, long> lineAndColumn(std::string_view text, size_t offset)
{
    offset = std::min(offset, text.size());
    long line = 1;
    size_t lineStart = 0;
    for (size_t i = 0; i < offset; ++i) {
        if (text[i] == '\n') {
            ++line;
            lineStart = i + 1;
        }
    }
    return {line, long(offset - lineStart) + 1};
}

/// The shortest round-trip digits of |v| > 0 and the position of the decimal point after the
/// first `decpt` of them (v = 0.d1d2... x 10^decpt).
void shortestDigits(double v, std::string& digits, int& decpt)
{
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
    const std::string s(buf, r.ptr);
    const size_t e = s.find('e');
    digits.clear();
    for (size_t i = 0; i < e; ++i) {
        if (s[i] != '.') {
            digits += s[i];
        }
    }
    while (digits.size() > 1 && digits.back() == '0') {
        digits.pop_back();
    }
    decpt = std::stoi(s.substr(e + 1)) + 1;
}

void appendEscaped(std::string& out, const std::string& s)
{
    static const char* hex = "0123456789abcdef";
    out += '"';
    for (const char ch : s) {
        const auto u = static_cast<unsigned char>(ch);
        switch (u) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\b':
            out += "\\b";
            break;
        case '\f':
            out += "\\f";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        case '\t':
            out += "\\t";
            break;
        default:
            if (u < 0x20) {
                out += "\\u00";
                out += hex[u >> 4];
                out += hex[u & 0xf];
            } else {
                out += ch;
            }
        }
    }
    out += '"';
}

void write(std::string& out, const Json& v, int indent, bool compact)
{
    const std::string pad(size_t(4 * indent), ' ');
    const std::string inner(size_t(4 * (indent + 1)), ' ');
    switch (v.type()) {
    case Json::value_t::object: {
        out += compact ? "{" : "{\n";
        size_t i = 0;
        for (auto it = v.begin(); it != v.end(); ++it, ++i) {
            if (!compact) {
                out += inner;
            }
            appendEscaped(out, it.key());
            out += compact ? ":" : ": ";
            write(out, it.value(), indent + 1, compact);
            out += i + 1 == v.size() ? (compact ? "" : "\n") : (compact ? "," : ",\n");
        }
        if (!compact) {
            out += pad;
        }
        out += '}';
        break;
    }
    case Json::value_t::array: {
        out += compact ? "[" : "[\n";
        for (size_t i = 0; i < v.size(); ++i) {
            if (!compact) {
                out += inner;
            }
            write(out, v[i], indent + 1, compact);
            out += i + 1 == v.size() ? (compact ? "" : "\n") : (compact ? "," : ",\n");
        }
        if (!compact) {
            out += pad;
        }
        out += ']';
        break;
    }
    case Json::value_t::string:
        appendEscaped(out, v.get_ref<const std::string&>());
        break;
    case Json::value_t::boolean:
        out += v.get<bool>() ? "true" : "false";
        break;
    case Json::value_t::number_integer:
        out += std::to_string(v.get<int64_t>());
        break;
    case Json::value_t::number_unsigned:
        out += std::to_string(v.get<uint64_t>());
        break;
    case Json::value_t::number_float:
        out += jsonNumber(v.get<double>());
        break;
    default:
        out += "null";
    }
}

} // namespace

const Json& member(const Json& o, const char* key)
{
    static const Json none;
    if (!o.is_object()) {
        return none;
    }
    const auto it = o.find(key);
    return it == o.end() ? none : *it;
}

Json objectOf(const Json& o, const char* key)
{
    const Json& v = member(o, key);
    return v.is_object() ? v : Json::object();
}

std::string textOf(const Json& v)
{
    return v.is_string() ? v.get<std::string>() : std::string();
}

std::string jsonNumber(double value)
{
    if (!std::isfinite(value)) {
        return "null"; // as Qt wrote a NaN or an infinity (the formats refuse them on reading)
    }
    if (value == 0.0) {
        return "0"; // -0 too, as Qt wrote it
    }
    std::string digits;
    int decpt = 0;
    shortestDigits(std::fabs(value), digits, decpt);
    const int count = int(digits.size());
    // Qt's choice for 'g' at the shortest precision with two exponent digits: the decimal form
    // unless it is longer than the exponent form ("e+08": 4 characters, the bias), counting
    // the padding zeros of each.
    int bias = 4;
    if (count <= decpt && count > 1) {
        ++bias; // the decimal form drops its point, the exponent form keeps one
    } else if (count == 1 && decpt <= 0) {
        --bias; // the exponent form has no point, the decimal form has one
    }
    const bool decimal = decpt <= 0       ? 1 - decpt <= bias
                         : decpt <= count ? 0 <= bias
                                          : decpt <= count + bias;
    std::string out = value < 0 ? "-" : "";
    if (decimal) {
        if (decpt <= 0) {
            out += "0." + std::string(size_t(-decpt), '0') + digits;
        } else if (decpt >= count) {
            out += digits + std::string(size_t(decpt - count), '0');
        } else {
            out += digits.substr(0, size_t(decpt)) + "." + digits.substr(size_t(decpt));
        }
        return out;
    }
    out += digits.substr(0, 1);
    if (count > 1) {
        out += "." + digits.substr(1);
    }
    const int exponent = decpt - 1;
    out += exponent < 0 ? "e-" : "e+";
    const std::string e = std::to_string(std::abs(exponent));
    out += (e.size() < 2 ? "0" : "") + e;
    return out;
}

std::string jsonCompact(const Json& value)
{
    std::string out;
    write(out, value, 0, true);
    return out;
}

std::string jsonIndented(const Json& value)
{
    std::string out;
    write(out, value, 0, false);
    return out + "\n";
}

Json parseJsonObject(std::string_view bytes, const std::string& source)
{
    // Keys seen in each open object, innermost last: a repeated key is refused.
    std::vector<std::set<std::string>> open;
    std::string repeated;
    const Json::parser_callback_t watch = [&](int, Json::parse_event_t event, Json& parsed) {
        if (event == Json::parse_event_t::object_start) {
            open.emplace_back();
        } else if (event == Json::parse_event_t::object_end && !open.empty()) {
            open.pop_back();
        } else if (event == Json::parse_event_t::key && !open.empty() && repeated.empty() &&
                   !open.back().insert(parsed.get<std::string>()).second) {
            repeated = parsed.get<std::string>();
        }
        return true;
    };
    Json doc;
    try {
        doc = Json::parse(bytes.begin(), bytes.end(), watch);
    } catch (const Json::parse_error& e) {
        const auto [line, column] = lineAndColumn(bytes, e.byte > 0 ? e.byte - 1 : 0);
        std::string what = e.what();
        const size_t colon = what.find(": ", what.find("parse error"));
        throw DataError(source, line, column,
                        "invalid JSON: " +
                            (colon == std::string::npos ? what : what.substr(colon + 2)));
    } catch (const Json::exception& e) {
        // Not a syntax error but a value nlohmann-json cannot hold (a number such as 1e400:
        // "number overflow"); uncaught, it ended the process (found by fuzz_model_file).
        std::string what = e.what();
        const size_t bracket = what.find("] ");
        throw DataError(source, 0, 0,
                        "invalid JSON: " +
                            (bracket == std::string::npos ? what : what.substr(bracket + 2)));
    }
    if (!repeated.empty()) {
        throw DataError(source, 0, 0,
                        "invalid JSON: the key \"" + repeated + "\" appears twice in one object");
    }
    if (!doc.is_object()) {
        throw DataError(source, 1, 1, "expected a JSON object at the top level");
    }
    return doc;
}

} // namespace sosrep::io
