// SPDX-License-Identifier: MIT
// libFuzzer target: the model-file loader (JSON, settings, kernel, scaler, parameters) and the
// estimator's rebuild of the model, then one evaluation. Bad input must end in DataError.
#include "core/errors.h"
#include "core/io/model_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    try {
        const sosrep::io::SavedModel m = sosrep::io::parseModel(bytes, "fuzz.json");
        const auto model = sosrep::io::toModel(m, "fuzz.json");
        // What reads, writes back and reads to the same bytes.
        const std::string written = sosrep::io::modelJson(m);
        if (sosrep::io::modelJson(sosrep::io::parseModel(written, "again.json")) != written) {
            __builtin_trap();
        }
        const sosrep::Matrix probe =
            sosrep::Matrix::Zero(1, static_cast<Eigen::Index>(m.columns.size()));
        const sosrep::LogDensity ld = model->logValues(probe);
        if (!ld.values.allFinite()) {
            __builtin_trap(); // a model that loads must evaluate to finite values
        }
    } catch (const sosrep::DataError&) {
    }
    return 0;
}
