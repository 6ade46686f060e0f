// SPDX-License-Identifier: MIT
// libFuzzer target: the CSV/TSV reader on arbitrary bytes. Bad input must end in DataError;
// anything else (a crash, a sanitizer report, another exception) is a finding.
#include "core/data/csv_reader.h"
#include "core/errors.h"

#include <sstream>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
    sosrep::CsvReadOptions options;
    options.source = "fuzz.csv";
    try {
        const sosrep::Dataset ds = sosrep::readCsv(in, options);
        if (ds.rows() < 1 || static_cast<size_t>(ds.dim()) != ds.columns.size()) {
            __builtin_trap(); // a dataset the reader accepted must be well formed
        }
    } catch (const sosrep::DataError&) {
    }
    return 0;
}
