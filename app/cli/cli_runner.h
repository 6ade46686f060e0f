// SPDX-License-Identifier: MIT
// The `sosrep` entry: command dispatch, exit codes and the generated CLI reference.
#pragma once

#include <QStringList>
#include <QTextStream>

#include <string>

namespace sosrep::cli {

/// Exit codes of the `sosrep` command line (the contract scripts rely on).
enum ExitCode
{
    ExitOk = 0,
    ExitInternal = 1,  // a bug: an unexpected internal error
    ExitUsage = 2,     // unknown command or option, bad parameter value or output path
    ExitData = 3,      // unreadable or invalid input data
    ExitNumerical = 4, // the fit diverged or produced no usable density
    ExitOutput = 5,    // an output could not be written (disk full, permissions)
    ExitMemory = 6     // out of memory
};

/// Runs `sosrep <command> [options]`; `args` excludes the program name. Messages go to `err` as
/// one line naming the file, line and column or the parameter; warnings as "warning:" lines;
/// results go to `out`, whose last line is a one-line JSON summary for `fit` and `score`.
int runCli(const QStringList& args, QTextStream& out, QTextStream& err);

/// The first of `argv[1..argc)` that is not valid UTF-8, as a one-line message, or "". Qt reads
/// arguments as UTF-8 and turns a stray byte into U+FFFD, so a file named in another encoding
/// would be "no such file" although it exists; the command line says what is wrong instead.
std::string argumentEncodingProblem(int argc, const char* const* argv);

} // namespace sosrep::cli
