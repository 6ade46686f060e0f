// SPDX-License-Identifier: MIT
// NumPy arrays read as the core's rows, without copies where the layout allows.
#include "app/python/array_input.h"

#include <pybind11/pybind11.h>

#include <cmath>
#include <cstdint>

namespace py = pybind11;

namespace sosrep::python {
namespace {

template <typename T> T at(const py::array& a, Eigen::Index i, Eigen::Index j)
{
    const auto* base = static_cast<const char*>(a.data());
    return *reinterpret_cast<const T*>(base + i * a.strides(0) + j * a.strides(1));
}

/// NumPy's byte-order character: '=' native, '|' not applicable, '<' or '>' explicit.
bool nativeByteOrder(const py::dtype& dt)
{
    const char order = dt.byteorder();
    const uint16_t probe = 1;
    const bool little = *reinterpret_cast<const unsigned char*>(&probe) == 1;
    return order == '=' || order == '|' || order == (little ? '<' : '>');
}

} // namespace

ArrayRows::ArrayRows(const py::array& array, const std::string& name) : m_array(array)
{
    if (array.ndim() != 2) {
        throw py::value_error(name + ": expected a 2-D array (rows x columns), got " +
                              std::to_string(array.ndim()) +
                              "-D. Reshape your data with reshape(-1, 1) for one column or "
                              "reshape(1, -1) for one row");
    }
    // By value, not by identity: an array unpickled in another process (joblib, Dask workers)
    // carries a float64 dtype object of its own, equal to NumPy's but not the same object.
    const py::dtype dt = array.dtype();
    const auto text = [&dt] {
        return py::str(static_cast<const py::handle&>(dt)).cast<std::string>();
    };
    if (!nativeByteOrder(dt)) {
        throw py::type_error(name + ": values in non-native byte order (" + text() +
                             "): convert them with astype(" + name + ".dtype.newbyteorder('='))");
    }
    if (dt.num() == py::dtype::of<double>().num()) {
        m_single = false;
    } else if (dt.num() == py::dtype::of<float>().num()) {
        m_single = true;
    } else {
        throw py::type_error(name + ": expected float64 or float32 values, got " + text());
    }
    m_rows = array.shape(0);
    m_cols = array.shape(1);
    m_borrowed =
        !m_single && array.strides(0) == Eigen::Index(sizeof(double)) &&
        array.strides(1) == Eigen::Index(sizeof(double)) * std::max<Eigen::Index>(m_rows, 1);
}

void ArrayRows::copyRows(Eigen::Index first, Eigen::Index n, Matrix* out) const
{
    out->resize(n, m_cols);
    for (Eigen::Index j = 0; j < m_cols; ++j) {
        for (Eigen::Index i = 0; i < n; ++i) {
            (*out)(i, j) = m_single ? double(at<float>(m_array, first + i, j))
                                    : at<double>(m_array, first + i, j);
        }
    }
}

void ArrayRows::forEachBlock(Eigen::Index blockRows,
                             const std::function<void(Eigen::Index, const MatrixRef&)>& use) const
{
    if (m_borrowed) {
        const Eigen::Map<const Matrix> whole(static_cast<const double*>(m_array.data()), m_rows,
                                             m_cols);
        for (Eigen::Index first = 0; first < m_rows; first += blockRows) {
            const Eigen::Index n = std::min(blockRows, m_rows - first);
            use(first, whole.middleRows(first, n));
        }
        return;
    }
    Matrix block;
    for (Eigen::Index first = 0; first < m_rows; first += blockRows) {
        const Eigen::Index n = std::min(blockRows, m_rows - first);
        copyRows(first, n, &block);
        use(first, block);
    }
}

Matrix ArrayRows::all() const
{
    // Converted straight into the result: going through forEachBlock would hold two copies.
    Matrix out;
    if (m_borrowed) {
        out = Eigen::Map<const Matrix>(static_cast<const double*>(m_array.data()), m_rows, m_cols);
    } else {
        copyRows(0, m_rows, &out);
    }
    return out;
}

bool ArrayRows::firstNonFinite(long* row, long* column, std::string* value) const
{
    for (Eigen::Index i = 0; i < m_rows; ++i) {
        for (Eigen::Index j = 0; j < m_cols; ++j) {
            const double v =
                m_single ? double(at<float>(m_array, i, j)) : at<double>(m_array, i, j);
            if (!std::isfinite(v)) {
                *row = long(i) + 1;
                *column = long(j) + 1;
                *value = std::isnan(v) ? "NaN" : (v > 0 ? "inf" : "-inf");
                return true;
            }
        }
    }
    return false;
}

} // namespace sosrep::python
