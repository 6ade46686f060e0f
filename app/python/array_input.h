// SPDX-License-Identifier: MIT
// NumPy arrays read as the core's rows, without copies where the layout allows.
#pragma once

#include "core/types.h"

#include <pybind11/numpy.h>

#include <functional>
#include <string>

namespace sosrep::python {

/// Rows of a 2-D NumPy array as the core reads them. A float64 array in Fortran order is read
/// where it lies (no copy); anything else (C order, float32, strided) is converted a block of
/// rows at a time, so scoring never holds a second copy of the whole input.
class ArrayRows
{
public:
    /// Refuses (ValueError naming `name`) anything but a 2-D array of real numbers.
    ArrayRows(const pybind11::array& array, const std::string& name);

    Eigen::Index rows() const { return m_rows; }
    Eigen::Index cols() const { return m_cols; }
    /// True when the core reads the caller's buffer itself.
    bool borrowed() const { return m_borrowed; }
    /// Calls `use(first, block)` for consecutive blocks of at most `blockRows` rows, in double
    /// precision; `block` lives only during the call.
    void
    forEachBlock(Eigen::Index blockRows,
                 const std::function<void(Eigen::Index first, const MatrixRef& block)>& use) const;
    /// All rows as one double matrix (a fit needs them together).
    Matrix all() const;
    /// The first row and column (1-based) holding NaN or infinity, with its value's text;
    /// false when every value is finite.
    bool firstNonFinite(long* row, long* column, std::string* value) const;

private:
    void copyRows(Eigen::Index first, Eigen::Index n, Matrix* out) const;

    pybind11::array m_array;
    Eigen::Index m_rows = 0;
    Eigen::Index m_cols = 0;
    bool m_borrowed = false;
    bool m_single = false;
};

} // namespace sosrep::python
