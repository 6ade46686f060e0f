// SPDX-License-Identifier: MIT
#pragma once

#include "core/data/dataset.h"

#include <istream>
#include <string>

namespace sosrep {

struct CsvReadOptions
{
    char delimiter = 0; // 0 = detect from the header among ',', ';' and tab
    std::string source; // file name used in error messages
};

/// Reads a delimited text table with a header row into a Dataset (all columns numeric).
///
/// Handles RFC 4180 quoting (doubled quotes, embedded delimiters and newlines), CRLF line ends and
/// a UTF-8 byte-order mark. Numbers are parsed locale-independently (std::from_chars).
/// Missing values ('', NA, NaN, ?) and non-numeric text are never turned into numbers: they throw
/// DataError naming the line and column, as do ragged rows and files without data rows.
Dataset readCsv(std::istream& in, const CsvReadOptions& options = {});

/// Opens and reads a file; the delimiter is detected unless given.
Dataset readCsvFile(const std::string& path, char delimiter = 0);

} // namespace sosrep
