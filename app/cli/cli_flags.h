// SPDX-License-Identifier: MIT
// The table of the commands' own flags (files, data, protocol) and how they are added.
#pragma once

#include <QCommandLineParser>
#include <QStringList>

namespace sosrep::cli {

/// Adds the named command-line flags (without "--") from the one table of the commands' own
/// flags (files, data, protocol; the estimators' options come from their option tables, see
/// fit_options.h). Each flag has one help text wherever it is used.
void addFlags(QCommandLineParser& parser, const QStringList& names);

} // namespace sosrep::cli
