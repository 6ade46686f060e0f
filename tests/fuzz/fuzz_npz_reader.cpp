// SPDX-License-Identifier: MIT
// libFuzzer target: the .npz reader (zip container, deflate, .npy headers, the ADBench X/y
// layout) on arbitrary bytes. Bad input must end in DataError.
#include "core/data/npz_reader.h"
#include "core/errors.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    try {
        const auto arrays = sosrep::readNpzBytes(data, size, "fuzz.npz");
        const sosrep::Dataset ds = sosrep::npzDataset(arrays, "fuzz.npz");
        if (ds.rows() < 1 || !ds.x.allFinite()) {
            __builtin_trap();
        }
    } catch (const sosrep::DataError&) {
    }
    return 0;
}
