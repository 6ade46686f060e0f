// SPDX-License-Identifier: MIT
// Memory limits and checks on matrix sizes before they are allocated.
#pragma once

#include <cstdint>
#include <string>

namespace sosrep {

/// Sizes the library refuses up front instead of failing in the allocator (std::bad_alloc) or
/// running for hours. One place, so every front end states the same limits.
namespace limits {

/// Largest single matrix of doubles any step allocates (kernel matrices, feature maps, Nystroem
/// blocks, grids, arrays read from files): 4 GB, a sixth of the 24 GB machines we target, so a
/// few such matrices and the data still fit.
constexpr double kMaxMatrixBytes = 4e9;

/// Largest input file read into memory (.npz archives are read whole): 8 GiB.
constexpr uint64_t kMaxInputFileBytes = uint64_t(8) << 30;

/// Largest uncompressed .npz member: the arrays are converted to doubles afterwards, so a member
/// beyond this could not be held as a matrix anyway.
constexpr uint64_t kMaxNpzMemberBytes = uint64_t(4) << 30;

} // namespace limits

/// Throws ParameterError(parameter, ...) when a rows x cols matrix of doubles would exceed
/// limits::kMaxMatrixBytes; `what` names the matrix ("the N x T feature map").
void checkMatrixSize(double rows, double cols, const std::string& parameter,
                     const std::string& what);

/// Human-readable byte count ("3.7 GB").
std::string formatBytes(double bytes);

} // namespace sosrep
