// SPDX-License-Identifier: MIT
// Typed, checked access to a parsed `sosrep` command line.
#pragma once

#include <QCommandLineParser>
#include <QString>

#include <climits>
#include <cstdint>

namespace sosrep::cli {

/// Typed access to a parsed command line. Every conversion failure throws ParameterError naming
/// the option, so the runner can answer with one line and exit code 2.
class Options
{
public:
    explicit Options(const QCommandLineParser& parser) : m_parser(parser) {}

    bool has(const QString& name) const { return m_parser.isSet(name); }
    QString text(const QString& name, const QString& fallback = {}) const;
    QString required(const QString& name) const;
    double number(const QString& name, double fallback) const;
    /// A number in [minimum, maximum]; `why` says where the limits come from.
    double number(const QString& name, double fallback, double minimum, double maximum,
                  const char* why = "") const;
    /// An integer in [minimum, maximum]; above the maximum the message gives `why`.
    int integer(const QString& name, int fallback, int minimum, int maximum = INT_MAX,
                const char* why = "") const;
    uint64_t seed(const QString& name, uint64_t fallback) const;

private:
    const QCommandLineParser& m_parser;
};

/// Adds a value option `--name VALUE`.
void addValueOption(QCommandLineParser& parser, const QString& name, const QString& help,
                    const QString& valueName = QStringLiteral("X"));

} // namespace sosrep::cli
