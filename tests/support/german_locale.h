// SPDX-License-Identifier: MIT
// A scope with a German numeric locale, to prove parsing is locale-free.
#pragma once

#include <QProcess>
#include <QTemporaryDir>

#include <clocale>
#include <cstdlib>
#include <string>

/// Switches the process's LC_NUMERIC to German (decimal comma) for one test, as a user's
/// desktop session does, and back to "C" on destruction. The machine need not have the locale
/// generated: it is compiled from the `locales` package's sources into a temporary folder
/// (scripts/install-deps.sh installs the package), so the test runs the same everywhere.
class GermanNumbers
{
public:
    GermanNumbers()
    {
        if (!m_dir.isValid()) {
            m_error = "no temporary folder";
            return;
        }
        const QString target = m_dir.filePath(QStringLiteral("de_DE.UTF-8"));
        const int rc = QProcess::execute(QStringLiteral("localedef"),
                                         {QStringLiteral("-i"), QStringLiteral("de_DE"),
                                          QStringLiteral("-f"), QStringLiteral("UTF-8"), target});
        if (rc != 0) {
            m_error = "localedef -i de_DE -f UTF-8 failed (exit " + std::to_string(rc) +
                      "): install the Debian package locales";
            return;
        }
        setenv("LOCPATH", m_dir.path().toLocal8Bit().constData(), 1);
        if (std::setlocale(LC_NUMERIC, "de_DE.UTF-8") == nullptr) {
            m_error = "setlocale(LC_NUMERIC, de_DE.UTF-8) failed";
            return;
        }
        // The locale must really be active, or the tests that use it prove nothing.
        if (std::strtod("0,5", nullptr) != 0.5) {
            m_error = "the German locale does not read 0,5";
        }
    }
    ~GermanNumbers()
    {
        std::setlocale(LC_NUMERIC, "C");
        unsetenv("LOCPATH");
    }
    GermanNumbers(const GermanNumbers&) = delete;
    GermanNumbers& operator=(const GermanNumbers&) = delete;

    /// Switches to German again (a command line run switches its process back to "C").
    bool activate() { return m_error.empty() && std::setlocale(LC_NUMERIC, "de_DE.UTF-8"); }

    /// Empty when the locale is active.
    const std::string& error() const { return m_error; }

private:
    QTemporaryDir m_dir;
    std::string m_error;
};
