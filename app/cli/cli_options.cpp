// SPDX-License-Identifier: MIT
// Typed, checked access to a parsed `sosrep` command line.
#include "app/cli/cli_options.h"

#include "core/errors.h"
#include "core/util/text.h"

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
    if (!m_parser.isSet(name)) {
        return fallback;
    }
    // A value option given '' (a shell variable that was never set) names nothing: it was
    // read as left out (issue 52: --id-column '' and --lodo '' ignored). A flag has no values.
    if (!m_parser.values(name).isEmpty() && m_parser.value(name).isEmpty()) {
        throw ParameterError(optionName(name), "is empty: give it a value, or leave it out");
    }
    return m_parser.value(name);
}

QString Options::required(const QString& name) const
{
    if (!m_parser.isSet(name) || m_parser.value(name).isEmpty()) {
        throw ParameterError(optionName(name), "is required");
    }
    return m_parser.value(name);
}

namespace {

/// The optional reason after a limit, with its separating space ("at most 2 (at most ...)").
std::string spaced(const char* why)
{
    return why && *why ? std::string(" ") + why : std::string();
}

} // namespace

double Options::number(const QString& name, double fallback) const
{
    if (!m_parser.isSet(name)) {
        return fallback;
    }
    bool ok = false;
    // QString::toDouble is locale-independent (C locale), unlike strtod.
    const double v = m_parser.value(name).toDouble(&ok);
    if (!ok || !std::isfinite(v)) {
        throw ParameterError(optionName(name), "expected a number, got " +
                                                   quotedText(m_parser.value(name).toStdString()));
    }
    return v;
}

double Options::number(const QString& name, double fallback, double minimum, double maximum,
                       const char* why) const
{
    const double v = number(name, fallback);
    if (v < minimum || v > maximum) {
        throw ParameterError(optionName(name),
                             "must lie in [" + QString::number(minimum).toStdString() + ", " +
                                 QString::number(maximum).toStdString() + "]" + spaced(why) +
                                 ", got " + QString::number(v).toStdString());
    }
    return v;
}

int Options::integer(const QString& name, int fallback, int minimum, int maximum,
                     const char* why) const
{
    if (!m_parser.isSet(name)) {
        return fallback;
    }
    bool ok = false;
    const qlonglong v = m_parser.value(name).toLongLong(&ok);
    if (!ok) {
        throw ParameterError(optionName(name), "expected an integer, got " +
                                                   quotedText(m_parser.value(name).toStdString()));
    }
    if (v < minimum) {
        throw ParameterError(optionName(name), "must be at least " + std::to_string(minimum));
    }
    if (v > maximum) {
        throw ParameterError(optionName(name),
                             "must be at most " + std::to_string(maximum) + spaced(why));
    }
    return static_cast<int>(v);
}

uint64_t Options::seed(const QString& name, uint64_t fallback) const
{
    if (!m_parser.isSet(name)) {
        return fallback;
    }
    bool ok = false;
    const qulonglong v = m_parser.value(name).toULongLong(&ok);
    if (!ok) {
        throw ParameterError(optionName(name), "expected a non-negative integer seed, got " +
                                                   quotedText(m_parser.value(name).toStdString()));
    }
    return v;
}

} // namespace sosrep::cli
