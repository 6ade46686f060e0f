// SPDX-License-Identifier: MIT
// A fitted model's named parameters (numbers, text, vectors, matrices) for model files.
#include "core/estimators/parameter_map.h"

#include "core/errors.h"

#include <cmath>

namespace sosrep {

template <typename T> const T& ParameterMap::get(const std::string& key, const char* what) const
{
    const auto it = m_values.find(key);
    if (it == m_values.end()) {
        throw ParameterError(key, "is missing");
    }
    const T* v = std::get_if<T>(&it->second);
    if (!v) {
        throw ParameterError(key, std::string("must be ") + what);
    }
    return *v;
}

double ParameterMap::number(const std::string& key) const
{
    const double v = get<double>(key, "a number");
    if (!std::isfinite(v)) {
        throw ParameterError(key, "must be finite");
    }
    return v;
}

const std::string& ParameterMap::text(const std::string& key) const
{
    return get<std::string>(key, "a text");
}

const Vector& ParameterMap::vector(const std::string& key) const
{
    const Vector& v = get<Vector>(key, "a list of numbers");
    if (!v.allFinite()) {
        throw ParameterError(key, "must hold finite numbers");
    }
    return v;
}

const Matrix& ParameterMap::matrix(const std::string& key) const
{
    const Matrix& m = get<Matrix>(key, "a table of numbers");
    if (!m.allFinite()) {
        throw ParameterError(key, "must hold finite numbers");
    }
    return m;
}

} // namespace sosrep
