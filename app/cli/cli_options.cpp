// SPDX-License-Identifier: MIT
#include "app/cli/cli_options.h"

#include "core/errors.h"

#include <cmath>

namespace sosrep::cli {
namespace {

std::string optionName(const QString& name)
{
    return "--" + name.toStdString();
}

} // namespace

void addValueOption(QCommandLineParser& parser, const QString& name, const QString& help,
                    const QString& valueName)
{
    parser.addOption(QCommandLineOption(name, help, valueName));
}

QString Options::text(const QString& name, const QString& fallback) const
{
    return m_parser.isSet(name) ? m_parser.value(name) : fallback;
}

QString Options::required(const QString& name) const
{
    if (!m_parser.isSet(name) || m_parser.value(name).isEmpty()) {
        throw ParameterError(optionName(name), "is required");
    }
    return m_parser.value(name);
}

double Options::number(const QString& name, double fallback) const
{
    if (!m_parser.isSet(name)) {
        return fallback;
    }
    bool ok = false;
    // QString::toDouble is locale-independent (C locale), unlike strtod.
    const double v = m_parser.value(name).toDouble(&ok);
    if (!ok || !std::isfinite(v)) {
        throw ParameterError(optionName(name),
                             "expected a number, got '" + m_parser.value(name).toStdString() + "'");
    }
    return v;
}

int Options::integer(const QString& name, int fallback, int minimum) const
{
    if (!m_parser.isSet(name)) {
        return fallback;
    }
    bool ok = false;
    const int v = m_parser.value(name).toInt(&ok);
    if (!ok) {
        throw ParameterError(optionName(name), "expected an integer, got '" +
                                                   m_parser.value(name).toStdString() + "'");
    }
    if (v < minimum) {
        throw ParameterError(optionName(name), "must be at least " + std::to_string(minimum));
    }
    return v;
}

uint64_t Options::seed(const QString& name, uint64_t fallback) const
{
    if (!m_parser.isSet(name)) {
        return fallback;
    }
    bool ok = false;
    const qulonglong v = m_parser.value(name).toULongLong(&ok);
    if (!ok) {
        throw ParameterError(optionName(name), "expected a non-negative integer seed, got '" +
                                                   m_parser.value(name).toStdString() + "'");
    }
    return v;
}

} // namespace sosrep::cli
