// SPDX-License-Identifier: MIT
// The error types (data, parameter, numerical) and where they point: file, line, column, option.
#pragma once

#include <stdexcept>
#include <string>

namespace sosrep {

/// Bad input data: names the file, and the 1-based line and column when known (0 = unknown).
class DataError : public std::runtime_error
{
public:
    DataError(const std::string& file, long line, long column, const std::string& what)
        : std::runtime_error(format(file, line, column, what)), m_file(file), m_line(line),
          m_column(column)
    {
    }
    const std::string& file() const { return m_file; }
    long line() const { return m_line; }
    long column() const { return m_column; }

private:
    static std::string format(const std::string& file, long line, long column,
                              const std::string& what)
    {
        std::string s = file.empty() ? std::string("<input>") : file;
        if (line > 0) {
            s += ":" + std::to_string(line);
            if (column > 0) {
                s += ":" + std::to_string(column);
            }
        }
        return s + ": " + what;
    }
    std::string m_file;
    long m_line;
    long m_column;
};

/// A parameter outside its valid range; the message names the parameter.
class ParameterError : public std::invalid_argument
{
public:
    ParameterError(const std::string& parameter, const std::string& what)
        : std::invalid_argument(parameter + ": " + what), m_parameter(parameter), m_message(what)
    {
    }
    const std::string& parameter() const { return m_parameter; }
    /// The message without the parameter's name.
    const std::string& message() const { return m_message; }

private:
    std::string m_parameter;
    std::string m_message;
};

/// A computation that produced no usable result (a diverged solver, non-finite values). Front
/// ends report it with its own exit code; the message says what failed and where.
class NumericalError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

} // namespace sosrep
