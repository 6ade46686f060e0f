// SPDX-License-Identifier: MIT
// The pieces of the copied command and Python that every view's reproduction shares.
#pragma once

#include "core/estimators/fit_settings.h"
#include "ui/reproduce.h"

#include <QString>
#include <QStringList>

#include <string>
#include <utility>
#include <vector>

namespace sosrep {
struct OptionSpec;
}

namespace sosrep::ui {

class SessionData;

/// " 0.1.0" (the app's version, which the copied text names), or "" outside the app.
QString versionText();
/// Options that differ from the estimator's defaults, and the seed always (name, value);
/// purpose is left to the view.
std::vector<std::pair<std::string, std::string>> changedOptions(const FitSettings& s);
/// The Python keyword of an option (the package's keyword_of: lambda is lam).
QString keywordOf(const std::string& name);
/// `text` as a Python string literal.
QString pythonString(const QString& text);
/// An option's value as the Python literal its keyword takes.
QString pythonValue(const OptionSpec* spec, const std::string& value);
/// The delimiter the reader detects in the file's header (detectDelimiter), for pandas.
QString delimiterOf(const QString& path);
/// What the app read that the command line would not, said in the copied text.
QStringList loadCaveats(const SessionData& data);
/// --columns (when a role leaves a column out), --label-column and --id-column.
QStringList columnArguments(const SessionData& data);
/// --estimator and every option that is not its default (the seed always).
QStringList optionArguments(const FitSettings& s);
/// The Python keywords of optionArguments, then `extra` ("purpose=...") when given.
QString pythonKeywords(const FitSettings& s, const QString& extra = {});
/// "sosrep" and the arguments, each quoted for a POSIX shell where it needs to be.
QString commandLine(const QStringList& args);
/// The Python lines that read `path` into `data` and its features into `X` (a DataFrame of
/// a CSV/TSV, an array of a .npz), as the app read them.
QStringList pythonTableLines(const SessionData& data, const QString& path);
/// The data file the copied text reads: the loaded file's absolute path, or toy.csv with the
/// `sosrep generate` arguments that write the app's toy rows in *generate.
QString dataPathOf(const SessionData& data, QStringList* generate);
/// "# header", then each caveat as a comment line.
QStringList commentLines(const QString& header, const QStringList& caveats);
/// The copied shell text: the comment lines, the `sosrep generate` line of a toy set, then the
/// command of r.arguments.
QString commandText(const QString& header, const QStringList& caveats, const Reproduction& r);
/// The `sosrep generate` line as a comment above the Python's imports.
void insertToyComment(Reproduction& r);

} // namespace sosrep::ui
