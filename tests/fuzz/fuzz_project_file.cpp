// SPDX-License-Identifier: MIT
// libFuzzer target: the project-file parser (JSON, data source, roles, fit settings, app
// settings). Bad input must end in DataError.
#include "core/errors.h"
#include "core/io/project_format.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    try {
        const sosrep::io::ProjectData p =
            sosrep::io::parseProject(bytes, "/fuzz/project.sosrep.json");
        // What parses writes back and parses to the same settings.
        const sosrep::io::ProjectData again =
            sosrep::io::parseProject(sosrep::io::projectJson(p), "/fuzz/project.sosrep.json");
        if (again.settings != p.settings || again.roles != p.roles) {
            __builtin_trap();
        }
    } catch (const sosrep::DataError&) {
    }
    return 0;
}
