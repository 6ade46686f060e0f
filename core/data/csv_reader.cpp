// SPDX-License-Identifier: MIT
// CSV/TSV reading (RFC 4180) with errors that name the file, line and column.
#include "core/data/csv_reader.h"

#include "core/data/file_bytes.h"
#include "core/errors.h"
#include "core/util/text.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>
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

/// Skips a UTF-8 byte-order mark and returns the delimiter: the asked one, or the one the first
/// line uses (peeked at without consuming it).
char openText(std::istream& in, const CsvReadOptions& options)
{
    if (in.peek() == 0xEF) {
        char bom[3];
        in.read(bom, 3);
        if (!(static_cast<unsigned char>(bom[1]) == 0xBB &&
              static_cast<unsigned char>(bom[2]) == 0xBF)) {
            throw DataError(options.source, 1, 1,
                            "file starts with an invalid byte sequence (not UTF-8)");
        }
    }
    if (options.delimiter != 0) {
        return options.delimiter;
    }
    const std::streampos start = in.tellg();
    std::string first;
    std::getline(in, first);
    in.clear();
    in.seekg(start);
    return detectDelimiter(first);
}

/// The header's column names: trimmed, blank ones named columnN, none twice.
std::vector<std::string> headerNames(const std::vector<Field>& record, const std::string& src)
{
    // A hash of the names seen: a header of 10^6 columns is checked in a second, where comparing
    // each name with every earlier one took minutes.
    std::vector<std::string> names;
    names.reserve(record.size());
    std::unordered_map<std::string, size_t> seen;
    seen.reserve(record.size());
    for (size_t j = 0; j < record.size(); ++j) {
        std::string name = trim(record[j].text);
        if (name.empty()) {
            name = "column" + std::to_string(j + 1);
        }
        const auto [it, inserted] = seen.emplace(name, j);
        if (!inserted) {
            throw DataError(src, 1, static_cast<long>(j) + 1,
                            "column name " + quotedText(name) + " appears twice (columns " +
                                std::to_string(it->second + 1) + " and " + std::to_string(j + 1) +
                                ")");
        }
        names.push_back(std::move(name));
    }
    return names;
}

struct BadCell
{
    long line = 0;
    long col = 0;
    std::string what;
};

/// Every cell classified (number, missing, text), row by row; what an interactive read needs
/// to leave out text columns and incomplete rows, and a strict one to name the first bad cell.
struct CellTable
{
    std::vector<double> values;
    std::vector<signed char> kinds; // 0 number, 1 missing, 2 text
    std::vector<std::optional<BadCell>> firstText;
    std::vector<signed char> firstKind; // of the column's first non-missing cell
    std::optional<BadCell> firstMissing;
    long rows = 0;
    /// The cells of the id column and of text columns, as text (a text column from its first
    /// text cell on, earlier rows ""): what row names are read from.
    std::map<size_t, std::vector<std::string>> texts;
};

/// One cell: its kind, its value, and the first missing or text cell remembered.
signed char classify(const Field& field, size_t j, const std::vector<std::string>& columns,
                     const std::string& src, CellTable& t, double& v)
{
    const std::string text = trim(field.text);
    const long col = static_cast<long>(j) + 1;
    const std::string where = " in column " + quotedText(columns[j]);
    if (isMissingToken(text)) {
        if (!t.firstMissing) {
            t.firstMissing = BadCell{field.line, col,
                                     "missing value " + quotedText(text) + where +
                                         " (remove or impute incomplete rows "
                                         "first)"};
        }
        return 1;
    }
    const char* b = text.data();
    const char* e = text.data() + text.size();
    if (*b == '+') {
        ++b; // from_chars rejects a leading '+', common in exported data
    }
    const auto res = std::from_chars(b, e, v);
    if (res.ec != std::errc() || res.ptr != e) {
        if (!t.firstText[j]) {
            t.firstText[j] = BadCell{field.line, col, "not a number: " + quotedText(text) + where};
        }
        return 2;
    }
    if (!std::isfinite(v)) {
        throw DataError(src, field.line, col, "non-finite value " + quotedText(text) + where);
    }
    return 0;
}

CellTable readCells(CsvTokenizer& tok, const std::vector<std::string>& columns,
                    const CsvReadOptions& options, size_t idIndex)
{
    const size_t ncol = columns.size();
    const std::string& src = options.source;
    const bool lenient =
        options.dropTextColumns || options.dropIncompleteRows || options.dropStrayTextRows;
    CellTable t;
    t.firstText.resize(ncol);
    t.firstKind.assign(ncol, -1);
    std::vector<Field> record;
    while (tok.next(record)) {
        if (record.size() != ncol) {
            throw DataError(src, record.front().line, 0,
                            "expected " + std::to_string(ncol) +
                                " fields (as in the header), found " +
                                std::to_string(record.size()));
        }
        for (size_t j = 0; j < ncol; ++j) {
            double v = 0.0;
            if (j == idIndex) { // any text: a name, not a value
                t.texts[j].push_back(trim(record[j].text));
                t.values.push_back(v);
                t.kinds.push_back(0);
                continue;
            }
            const signed char kind = classify(record[j], j, columns, src, t, v);
            if (kind != 1 && t.firstKind[j] < 0) {
                t.firstKind[j] = kind;
            }
            if (t.firstKind[j] == 2 && options.dropTextColumns) {
                std::vector<std::string>& names = t.texts[j];
                names.resize(static_cast<size_t>(t.rows));
                names.push_back(trim(record[j].text));
            }
            if (!lenient && kind != 0) {
                const BadCell& bad = kind == 1 ? *t.firstMissing : *t.firstText[j];
                throw DataError(src, bad.line, bad.col, bad.what);
            }
            t.values.push_back(v);
            t.kinds.push_back(kind);
        }
        ++t.rows;
    }
    if (t.rows == 0) {
        throw DataError(src, 0, 0, "no data rows after the header");
    }
    return t;
}

/// The distinct values of text column j in order of first appearance, when it reads as
/// categories: 2 to kMaxCategoryLevels of them, each on two rows or more on average (a column
/// of names is an id, not a group); otherwise empty.
std::vector<std::string> categoryLevels(const CellTable& t, size_t j)
{
    const auto it = t.texts.find(j);
    if (it == t.texts.end()) {
        return {};
    }
    std::vector<std::string> levels;
    std::set<std::string> seen;
    long cells = 0;
    for (const std::string& text : it->second) {
        if (isMissingToken(text)) {
            continue;
        }
        ++cells;
        if (seen.insert(text).second) {
            levels.push_back(text);
            if (int(levels.size()) > kMaxCategoryLevels) {
                return {};
            }
        }
    }
    if (levels.size() < 2 || long(levels.size()) * 2 > cells) {
        return {};
    }
    return levels;
}

/// Columns kept: a text column (its first value is text: names, ids, categories) is refused,
/// or left out when allowed; a stray word in a numeric column is a data error either way.
/// `idIndex`: the id column (never kept); an interactive read reads a text column of few
/// values as categories (kept, into `categories`) and, without an id column, takes the first
/// other text column as the row names (set here).
std::vector<size_t> keptColumns(const CellTable& t, const std::vector<std::string>& columns,
                                const CsvReadOptions& options, CsvReadReport* report,
                                size_t& idIndex,
                                std::map<size_t, std::vector<std::string>>& categories)
{
    std::vector<size_t> keep;
    for (size_t j = 0; j < columns.size(); ++j) {
        if (j == idIndex) {
            continue;
        }
        if (!t.firstText[j] || (options.dropStrayTextRows && t.firstKind[j] == 0)) {
            keep.push_back(j); // numbers (a stray word's row is left out: completeRows)
        } else if (!options.dropTextColumns || t.firstKind[j] != 2) {
            throw DataError(options.source, t.firstText[j]->line, t.firstText[j]->col,
                            t.firstText[j]->what);
        } else if (std::vector<std::string> levels = categoryLevels(t, j); !levels.empty()) {
            categories[j] = std::move(levels);
            keep.push_back(j);
            if (report) {
                report->categoryColumns.push_back(columns[j]);
            }
        } else if (idIndex == std::string::npos) {
            idIndex = j;
        } else if (report) {
            report->textColumns.push_back(columns[j]);
        }
    }
    if (report && idIndex != std::string::npos) {
        report->rowNameColumn = columns[idIndex];
    }
    if (keep.empty()) {
        throw DataError(options.source, 1, 1, "no numeric column: every column holds text");
    }
    return keep;
}

/// Rows kept: one with a missing value in a kept column is refused, or left out when allowed;
/// likewise one with a word in a kept numeric column (not a category column's text).
std::vector<long> completeRows(const CellTable& t, const std::vector<size_t>& keep, size_t ncol,
                               const CsvReadOptions& options, CsvReadReport* report,
                               const std::map<size_t, std::vector<std::string>>& categories)
{
    std::vector<long> rows;
    long incomplete = 0;
    long stray = 0;
    for (long i = 0; i < t.rows; ++i) {
        bool missing = false;
        bool word = false;
        for (size_t j : keep) {
            const signed char kind = t.kinds[static_cast<size_t>(i) * ncol + j];
            missing = missing || kind == 1;
            word = word || (kind == 2 && categories.count(j) == 0);
        }
        incomplete += missing ? 1 : 0;
        stray += word ? 1 : 0;
        if (missing && !options.dropIncompleteRows) {
            throw DataError(options.source, t.firstMissing->line, t.firstMissing->col,
                            t.firstMissing->what);
        }
        if (!missing && !word) {
            rows.push_back(i);
        }
    }
    if (report) {
        report->incompleteRows = incomplete;
        report->strayTextRows = stray;
        report->droppedRows = t.rows - static_cast<long>(rows.size());
    }
    if (rows.empty()) {
        throw DataError(options.source, 0, 0,
                        stray > 0 ? "no complete data row: every row has a missing value or a "
                                    "word in a numeric column"
                                  : "no complete data row: every row has a missing value");
    }
    return rows;
}

} // namespace

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

Dataset readCsv(std::istream& in, const CsvReadOptions& options, CsvReadReport* report)
{
    const std::string& src = options.source;
    CsvTokenizer tok(in, openText(in, options), src);
    std::vector<Field> header;
    if (!tok.next(header)) {
        throw DataError(src, 0, 0, "file is empty (expected a header row and data rows)");
    }
    const std::vector<std::string> columns = headerNames(header, src);
    size_t idIndex = std::string::npos;
    if (!options.idColumn.empty()) {
        const auto it = std::find(columns.begin(), columns.end(), options.idColumn);
        if (it == columns.end() && !options.idColumnOptional) {
            std::string known;
            for (const std::string& c : columns) {
                known += (known.empty() ? "" : ", ") + quotedText(c);
            }
            throw DataError(src, 1, 0,
                            "no id column named " + quotedText(options.idColumn) +
                                " (columns: " + oneLine(known, 300) + ")");
        }
        if (it != columns.end()) {
            idIndex = static_cast<size_t>(it - columns.begin());
        }
    }
    const CellTable cells = readCells(tok, columns, options, idIndex);
    std::map<size_t, std::vector<std::string>> categories;
    const std::vector<size_t> keep =
        keptColumns(cells, columns, options, report, idIndex, categories);
    const std::vector<long> rows =
        completeRows(cells, keep, columns.size(), options, report, categories);
    Dataset ds;
    ds.source = src;
    if (idIndex != std::string::npos) {
        const std::vector<std::string>& names = cells.texts.at(idIndex);
        ds.rowNameColumn = columns[idIndex];
        for (long r : rows) {
            ds.rowNames.push_back(names[static_cast<size_t>(r)]);
        }
    }
    for (size_t j : keep) {
        ds.columns.push_back(columns[j]);
    }
    ds.x.resize(static_cast<Eigen::Index>(rows.size()), static_cast<Eigen::Index>(keep.size()));
    for (size_t r = 0; r < rows.size(); ++r) {
        for (size_t k = 0; k < keep.size(); ++k) {
            ds.x(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(k)) =
                cells.values[static_cast<size_t>(rows[r]) * columns.size() + keep[k]];
        }
    }
    // A category column's values are the codes of its texts.
    for (size_t k = 0; k < keep.size(); ++k) {
        const auto it = categories.find(keep[k]);
        if (it == categories.end()) {
            continue;
        }
        const std::vector<std::string>& levels = it->second;
        const std::vector<std::string>& texts = cells.texts.at(keep[k]);
        for (size_t r = 0; r < rows.size(); ++r) {
            const std::string& text = texts[static_cast<size_t>(rows[r])];
            ds.x(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(k)) =
                double(std::find(levels.begin(), levels.end(), text) - levels.begin());
        }
        ds.categories[columns[keep[k]]] = levels;
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
    // A sosrep project or model file given as data was read as a table of one odd column
    // (issue 52): said for what it is. Only our own JSON files are recognized; a CSV whose
    // first name happens to start with '{' still reads.
    char head[4096] = {};
    in.read(head, sizeof head - 1);
    const std::string start(head, static_cast<size_t>(in.gcount()));
    const size_t first = start.find_first_not_of(" \t\r\n");
    if (first != std::string::npos && start[first] == '{') {
        const bool project = start.find("\"sosrep-studio-project\"") != std::string::npos;
        const bool model = start.find("\"sosrep-model\"") != std::string::npos;
        if (project || model) {
            throw DataError(path, 1, 1,
                            project ? "is a SOSREP Studio project file, not data (open it in "
                                      "the app with File > Open project)"
                                    : "is a sosrep model file, not data (score rows with it: "
                                      "sosrep score --model)");
        }
    }
    in.clear();
    in.seekg(0);
    options.source = path;
    return readCsv(in, options, report);
}

} // namespace sosrep
