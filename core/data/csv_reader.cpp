// SPDX-License-Identifier: MIT
#include "core/data/csv_reader.h"

#include "core/data/file_bytes.h"
#include "core/errors.h"
#include "core/util/text.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <optional>
#include <vector>

namespace sosrep {
namespace {

struct Field
{
    std::string text;
    long line = 0;
    bool quoted = false;
};

/// Streaming RFC 4180 tokenizer: returns one record per call, false at end of input.
class CsvTokenizer
{
public:
    CsvTokenizer(std::istream& in, char delimiter, std::string source)
        : m_in(in), m_delimiter(delimiter), m_source(std::move(source))
    {
    }

    bool next(std::vector<Field>& record)
    {
        record.clear();
        int c = m_in.get();
        // Skip blank lines between records (a trailing newline is common).
        while (c == '\n' || c == '\r') {
            if (c == '\n') {
                ++m_line;
            }
            c = m_in.get();
        }
        if (c == EOF) {
            return false;
        }
        Field field;
        field.line = m_line;
        bool inQuotes = false;
        bool afterQuote = false;
        for (;; c = m_in.get()) {
            if (inQuotes) {
                if (c == EOF) {
                    throw DataError(m_source, field.line, static_cast<long>(record.size()) + 1,
                                    "unterminated quoted field");
                }
                if (c == '"') {
                    if (m_in.peek() == '"') {
                        field.text += '"';
                        m_in.get();
                    } else {
                        inQuotes = false;
                        afterQuote = true;
                    }
                } else {
                    if (c == '\n') {
                        ++m_line;
                    }
                    field.text += static_cast<char>(c);
                }
                continue;
            }
            if (c == m_delimiter) {
                record.push_back(std::move(field));
                field = Field{};
                field.line = m_line;
                afterQuote = false;
                continue;
            }
            if (c == '\r' && m_in.peek() == '\n') {
                continue; // CRLF: the '\n' ends the record
            }
            if (c == '\n' || c == '\r' || c == EOF) {
                if (c != EOF) {
                    ++m_line;
                }
                record.push_back(std::move(field));
                return true;
            }
            if (c == '"' && field.text.find_first_not_of(" \t") == std::string::npos &&
                !afterQuote) {
                field.text.clear();
                field.quoted = true;
                inQuotes = true;
                continue;
            }
            if (afterQuote) {
                if (c == ' ' || c == '\t') {
                    continue;
                }
                throw DataError(m_source, field.line, static_cast<long>(record.size()) + 1,
                                "unexpected character after closing quote");
            }
            field.text += static_cast<char>(c);
        }
    }

private:
    std::istream& m_in;
    char m_delimiter;
    std::string m_source;
    long m_line = 1;
};

std::string trim(const std::string& s)
{
    const auto b = s.find_first_not_of(" \t");
    if (b == std::string::npos) {
        return {};
    }
    const auto e = s.find_last_not_of(" \t");
    return s.substr(b, e - b + 1);
}

bool isMissingToken(const std::string& t)
{
    return t.empty() || t == "NA" || t == "N/A" || t == "NaN" || t == "nan" || t == "NAN" ||
           t == "?" || t == "null" || t == "NULL";
}

char detectDelimiter(const std::string& headerLine)
{
    const char candidates[] = {',', ';', '\t'};
    char best = ',';
    long bestCount = 0;
    for (char d : candidates) {
        long count = 0;
        bool inQuotes = false;
        for (char c : headerLine) {
            if (c == '"') {
                inQuotes = !inQuotes;
            } else if (c == d && !inQuotes) {
                ++count;
            }
        }
        if (count > bestCount) {
            best = d;
            bestCount = count;
        }
    }
    return best;
}

} // namespace

Dataset readCsv(std::istream& in, const CsvReadOptions& options, CsvReadReport* report)
{
    const std::string& src = options.source;
    // Skip a UTF-8 byte-order mark.
    if (in.peek() == 0xEF) {
        char bom[3];
        in.read(bom, 3);
        if (!(static_cast<unsigned char>(bom[1]) == 0xBB &&
              static_cast<unsigned char>(bom[2]) == 0xBF)) {
            throw DataError(src, 1, 1, "file starts with an invalid byte sequence (not UTF-8)");
        }
    }
    char delimiter = options.delimiter;
    if (delimiter == 0) {
        // Peek at the first line without consuming it.
        const std::streampos start = in.tellg();
        std::string first;
        std::getline(in, first);
        in.clear();
        in.seekg(start);
        delimiter = detectDelimiter(first);
    }

    CsvTokenizer tok(in, delimiter, src);
    std::vector<Field> record;
    if (!tok.next(record)) {
        throw DataError(src, 0, 0, "file is empty (expected a header row and data rows)");
    }
    Dataset ds;
    ds.source = src;
    for (size_t j = 0; j < record.size(); ++j) {
        std::string name = trim(record[j].text);
        if (name.empty()) {
            name = "column" + std::to_string(j + 1);
        }
        for (size_t k = 0; k < ds.columns.size(); ++k) {
            if (ds.columns[k] == name) {
                throw DataError(src, 1, static_cast<long>(j) + 1,
                                "column name " + quoted(name) + " appears twice (columns " +
                                    std::to_string(k + 1) + " and " + std::to_string(j + 1) + ")");
            }
        }
        ds.columns.push_back(name);
    }
    const size_t ncol = ds.columns.size();

    // Each cell is classified first (number, missing, text); an interactive read then leaves
    // out text columns and incomplete rows, a strict one refuses the first bad cell.
    std::vector<double> values;
    std::vector<signed char> kinds; // 0 number, 1 missing, 2 text
    struct BadCell
    {
        long line = 0;
        long col = 0;
        std::string what;
    };
    std::vector<std::optional<BadCell>> firstText(ncol);
    std::vector<signed char> firstKind(ncol, -1); // of the column's first non-missing cell
    std::optional<BadCell> firstMissing;
    const bool lenient = options.dropTextColumns || options.dropIncompleteRows;
    long nrows = 0;
    while (tok.next(record)) {
        if (record.size() != ncol) {
            throw DataError(src, record.front().line, 0,
                            "expected " + std::to_string(ncol) +
                                " fields (as in the header), found " +
                                std::to_string(record.size()));
        }
        for (size_t j = 0; j < ncol; ++j) {
            const std::string t = trim(record[j].text);
            const long col = static_cast<long>(j) + 1;
            const std::string where = " in column " + quoted(ds.columns[j]);
            double v = 0.0;
            signed char kind = 0;
            if (isMissingToken(t)) {
                kind = 1;
                if (!firstMissing) {
                    firstMissing = BadCell{record[j].line, col,
                                           "missing value " + quoted(t) + where +
                                               " (remove or impute incomplete rows first)"};
                }
            } else {
                const char* b = t.data();
                const char* e = t.data() + t.size();
                if (*b == '+') {
                    ++b; // from_chars rejects a leading '+', common in exported data
                }
                const auto res = std::from_chars(b, e, v);
                if (res.ec != std::errc() || res.ptr != e) {
                    kind = 2;
                    if (!firstText[j]) {
                        firstText[j] =
                            BadCell{record[j].line, col, "not a number: " + quoted(t) + where};
                    }
                } else if (!std::isfinite(v)) {
                    throw DataError(src, record[j].line, col,
                                    "non-finite value " + quoted(t) + where);
                }
            }
            if (kind != 1 && firstKind[j] < 0) {
                firstKind[j] = kind;
            }
            if (!lenient && kind != 0) {
                const BadCell& bad = kind == 1 ? *firstMissing : *firstText[j];
                throw DataError(src, bad.line, bad.col, bad.what);
            }
            values.push_back(v);
            kinds.push_back(kind);
        }
        ++nrows;
    }
    if (nrows == 0) {
        throw DataError(src, 0, 0, "no data rows after the header");
    }
    // Columns: a text column (its first value is text: names, ids, categories) is refused, or
    // left out when allowed; a stray word in a numeric column is a data error either way.
    std::vector<size_t> keep;
    for (size_t j = 0; j < ncol; ++j) {
        if (!firstText[j]) {
            keep.push_back(j);
        } else if (!options.dropTextColumns || firstKind[j] != 2) {
            throw DataError(src, firstText[j]->line, firstText[j]->col, firstText[j]->what);
        } else if (report) {
            report->textColumns.push_back(ds.columns[j]);
        }
    }
    if (keep.empty()) {
        throw DataError(src, 1, 1, "no numeric column: every column holds text");
    }
    // Rows: one with a missing value in a kept column is refused, or left out when allowed.
    std::vector<long> rows;
    long incomplete = 0;
    for (long i = 0; i < nrows; ++i) {
        bool missing = false;
        for (size_t j : keep) {
            missing = missing || kinds[static_cast<size_t>(i) * ncol + j] == 1;
        }
        incomplete += missing ? 1 : 0;
        if (missing && !options.dropIncompleteRows) {
            throw DataError(src, firstMissing->line, firstMissing->col, firstMissing->what);
        }
        if (!missing) {
            rows.push_back(i);
        }
    }
    if (report) {
        report->incompleteRows = incomplete;
        report->droppedRows = nrows - static_cast<long>(rows.size());
    }
    if (rows.empty()) {
        throw DataError(src, 0, 0, "no complete data row: every row has a missing value");
    }
    std::vector<std::string> names;
    for (size_t j : keep) {
        names.push_back(ds.columns[j]);
    }
    ds.columns = names;
    ds.x.resize(static_cast<Eigen::Index>(rows.size()), static_cast<Eigen::Index>(keep.size()));
    for (size_t r = 0; r < rows.size(); ++r) {
        for (size_t k = 0; k < keep.size(); ++k) {
            ds.x(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(k)) =
                values[static_cast<size_t>(rows[r]) * ncol + keep[k]];
        }
    }
    return ds;
}

Dataset readCsvFile(const std::string& path, char delimiter)
{
    CsvReadOptions opt;
    opt.delimiter = delimiter;
    return readCsvFile(path, opt, nullptr);
}

Dataset readCsvFile(const std::string& path, CsvReadOptions options, CsvReadReport* report)
{
    checkInputFile(path);
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        throw DataError(path, 0, 0, "cannot open file for reading");
    }
    options.source = path;
    return readCsv(in, options, report);
}

} // namespace sosrep
