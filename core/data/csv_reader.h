// SPDX-License-Identifier: MIT
// CSV/TSV reading (RFC 4180) with errors that name the file, line and column.
#pragma once

#include "core/data/dataset.h"

#include <istream>
#include <string>

namespace sosrep {

/// A text column of 2 to this many values (at most half as many as its rows) is read as
/// categories by an interactive read: a group or a class, as seaborn's hue= takes it.
constexpr int kMaxCategoryLevels = 12;

struct CsvReadOptions
{
    char delimiter = 0; // 0 = detect from the header among ',', ';' and tab
    std::string source; // file name used in error messages
    /// For an interactive load (the app): a text column (its first value is not a number) is
    /// left out instead of refusing the file (a stray word in a numeric column still refuses it),
    /// and rows with a missing value are left out instead of refusing it. What was left out is
    /// reported in CsvReadReport; the command line keeps both off.
    bool dropTextColumns = false;
    bool dropIncompleteRows = false;
    /// Rows with a word in a numeric column (a stray "oops" among numbers) are left out
    /// instead of refusing the file (the app asks first, as for missing values).
    bool dropStrayTextRows = false;
    /// The id column: read as text into Dataset::rowNames, not a feature (its cells may hold
    /// anything, a missing one is an empty name). Empty: none, except that an interactive read
    /// (dropTextColumns) reads a text column of few values as categories (Dataset::categories)
    /// and takes the first other text column as the row names.
    std::string idColumn;
    /// A file without the id column reads without row names instead of refusing (the command
    /// line's training file when only test rows are written, issue 52).
    bool idColumnOptional = false;
};

/// What a lenient read left out.
struct CsvReadReport
{
    std::vector<std::string> textColumns; // each with its first text value: "name ('abc')"
    long incompleteRows = 0;              // rows with a missing value (dropped or not)
    long droppedRows = 0;                 // rows left out for a missing value or a stray word
    long strayTextRows = 0;               // rows with a word in a numeric column (dropped or not)
    std::string rowNameColumn;            // the column read as row names, if any
    std::vector<std::string> categoryColumns; // text columns read as categories
};

/// Reads a delimited text table with a header row into a Dataset (all columns numeric).
///
/// Handles RFC 4180 quoting (doubled quotes, embedded delimiters and newlines), CRLF line ends and
/// a UTF-8 byte-order mark. Numbers are parsed locale-independently (std::from_chars).
/// Missing values ('', NA, NaN, ?) and non-numeric text are never turned into numbers: they throw
/// DataError naming the line and column, as do ragged rows and files without data rows.
Dataset readCsv(std::istream& in, const CsvReadOptions& options = {},
                CsvReadReport* report = nullptr);

/// The delimiter a header line uses: the most frequent of ',', ';' and tab outside quotes
/// (',' when none occurs); what readCsv detects.
char detectDelimiter(const std::string& headerLine);

/// Opens and reads a file; the delimiter is detected unless given.
Dataset readCsvFile(const std::string& path, char delimiter = 0);
/// The same with options (the source is set to the path).
Dataset readCsvFile(const std::string& path, CsvReadOptions options, CsvReadReport* report);

} // namespace sosrep
