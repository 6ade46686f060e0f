// SPDX-License-Identifier: MIT
// libFuzzer target: the CSV/TSV reader on arbitrary bytes, strict and lenient. Bad input must end
// in DataError; anything else (a crash, a sanitizer report, another exception) is a finding.
#include "core/data/csv_reader.h"
#include "core/errors.h"

#include <sstream>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string text(reinterpret_cast<const char*>(data), size);
    // The strict read (the command line's) and the app's lenient one (the first text column as
    // row names, a text column of few values as categories, other text columns and, when asked,
    // incomplete rows and rows with a stray word left out) on the same bytes.
    // A third read, strict, with the id column `name` (--id-column): its cells are any text.
    for (const int mode : {0, 1, 2}) {
        const bool lenient = mode == 1;
        std::istringstream in(text);
        sosrep::CsvReadOptions options;
        options.source = "fuzz.csv";
        options.dropTextColumns = lenient;
        options.dropIncompleteRows = lenient;
        options.dropStrayTextRows = lenient;
        options.idColumn = mode == 2 ? "name" : "";
        sosrep::CsvReadReport report;
        try {
            const sosrep::Dataset ds = sosrep::readCsv(in, options, &report);
            const bool named = !ds.rowNames.empty() || !ds.rowNameColumn.empty();
            if (ds.rows() < 1 || static_cast<size_t>(ds.dim()) != ds.columns.size() ||
                !ds.x.allFinite() ||
                report.droppedRows > report.incompleteRows + report.strayTextRows ||
                (named && ds.rowNames.size() != static_cast<size_t>(ds.rows()))) {
                __builtin_trap(); // a dataset the reader accepted must be well formed
            }
            // A category column holds codes into its texts: 2 to kMaxCategoryLevels of them.
            for (const auto& [name, levels] : ds.categories) {
                const int j = ds.columnIndex(name);
                if (levels.size() < 2 || int(levels.size()) > sosrep::kMaxCategoryLevels ||
                    ds.x.col(j).minCoeff() < 0.0 ||
                    ds.x.col(j).maxCoeff() >= double(levels.size())) {
                    __builtin_trap();
                }
            }
        } catch (const sosrep::DataError&) {
        }
    }
    return 0;
}
