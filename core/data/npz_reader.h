// SPDX-License-Identifier: MIT
#pragma once

#include "core/data/dataset.h"

#include <cstddef>
#include <map>
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
/// either byte order; C or Fortran order). `source` names the array in error messages.
NpyArray parseNpy(const std::vector<unsigned char>& bytes, const std::string& source);

/// Reads every member of a .npz archive (stored or deflate members; zip64 sizes understood).
/// Keys are member names without the ".npy" suffix.
std::map<std::string, NpyArray> readNpz(const std::string& path);

/// Reads an ADBench-style .npz: `X` (n x d features) and optional `y` (n labels, 0/1).
/// Feature columns are named x1..xd; the labels' column is called "y".
Dataset readNpzDataset(const std::string& path);

} // namespace sosrep
