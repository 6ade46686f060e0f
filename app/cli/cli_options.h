// SPDX-License-Identifier: MIT
#pragma once

#include <QCommandLineParser>
#include <QString>

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
    int integer(const QString& name, int fallback, int minimum) const;
    uint64_t seed(const QString& name, uint64_t fallback) const;

private:
    const QCommandLineParser& m_parser;
};

/// Adds a value option `--name VALUE`.
void addValueOption(QCommandLineParser& parser, const QString& name, const QString& help,
                    const QString& valueName = QStringLiteral("X"));

} // namespace sosrep::cli
