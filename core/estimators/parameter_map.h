// SPDX-License-Identifier: MIT
// A fitted model's named parameters (numbers, text, vectors, matrices) for model files.
#pragma once

#include "core/types.h"

#include <map>
#include <string>
#include <variant>

namespace sosrep {

/// A fitted model's parameters by name, format-neutral: the file writers (JSON in the app and
/// the command line) store it, and the estimator reads it back. Reading a missing or mistyped
/// entry throws ParameterError naming it.
class ParameterMap
{
public:
    using Value = std::variant<double, std::string, Vector, Matrix>;

    void set(const std::string& key, Value value) { m_values[key] = std::move(value); }
    bool has(const std::string& key) const { return m_values.count(key) > 0; }

    double number(const std::string& key) const;
    const std::string& text(const std::string& key) const;
    const Vector& vector(const std::string& key) const;
    const Matrix& matrix(const std::string& key) const;

    const std::map<std::string, Value>& entries() const { return m_values; }

private:
    template <typename T> const T& get(const std::string& key, const char* what) const;
    std::map<std::string, Value> m_values;
};

} // namespace sosrep
