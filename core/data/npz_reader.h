// SPDX-License-Identifier: MIT
// .npz archives (X, y) as datasets, read from a file or from bytes.
#pragma once

#include "core/data/dataset.h"
#include "core/data/npy_array.h"

#include <map>
#include <string>

namespace sosrep {

/// Reads every member of a .npz archive (a zip of .npy files; see zip_archive.h and npy_array.h
/// for what is accepted). Keys are member names without the ".npy" suffix. The file must be a
/// regular file of at most limits::kMaxInputFileBytes.
std::map<std::string, NpyArray> readNpz(const std::string& path);

/// The same from bytes in memory; `source` names them in messages.
std::map<std::string, NpyArray> readNpzBytes(const unsigned char* data, size_t size,
                                             const std::string& source);

/// Reads an ADBench-style .npz: `X` (n x d features) and optional `y` (n labels, 0/1).
/// Feature columns are named x1..xd; the labels' column is called "y".
Dataset readNpzDataset(const std::string& path);

/// The dataset of arrays already read (from readNpz or readNpzBytes).
Dataset npzDataset(const std::map<std::string, NpyArray>& arrays, const std::string& source);

} // namespace sosrep
