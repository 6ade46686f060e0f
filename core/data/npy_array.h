// SPDX-License-Identifier: MIT
// The .npy array format: header, dtypes and byte order, parsed from bytes.
#pragma once

#include "core/data/byte_view.h"

#include <cstddef>
#include <string>
#include <vector>

namespace sosrep {

/// One array of a .npy file, converted to double, in logical row-major (C) order.
struct NpyArray
{
    std::vector<size_t> shape;
    std::vector<double> values;
    std::string dtype; // the header's descr, e.g. "<f8"
};

/// Parses a .npy payload (format versions 1, 2 and 3; dtypes f8 f4 i8 i4 i2 i1 u8 u4 u2 u1 b1,
/// either byte order; C or Fortran order). The payload is untrusted: the header is parsed as
/// the Python literal it is (a dict of 'descr', 'fortran_order' and 'shape'), the element count
/// is computed without overflow and must match the data present, and the converted array must
/// fit limits::kMaxMatrixBytes; anything else throws DataError naming the source.
NpyArray parseNpy(const ByteView& bytes);
NpyArray parseNpy(const std::vector<unsigned char>& bytes, const std::string& source);

} // namespace sosrep
