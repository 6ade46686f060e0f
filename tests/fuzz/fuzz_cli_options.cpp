// SPDX-License-Identifier: MIT
// libFuzzer target: the command line's option parsing, before any data is read. The input is
// an argument vector (arguments separated by newlines); its first byte picks what reads it:
// the fit options (density estimators), the ratio options, adbench's plan (methods, --lodo,
// outputs), or every command flag through each typed accessor. A bad value must end in the
// product's errors (ParameterError, DataError, OutputError), which the command line turns into
// one line and an exit code; anything else (another exception, a crash, a sanitizer report)
// is a finding.
#include "app/cli/adbench_plan.h"
#include "app/cli/cli_flags.h"
#include "app/cli/cli_options.h"
#include "app/cli/command_context.h"
#include "app/cli/fit_options.h"
#include "core/errors.h"
#include "core/io/output_set.h"

#include <QCommandLineParser>
#include <QStringList>
#include <QTextStream>

#include <climits>

namespace {

using namespace sosrep;
using namespace sosrep::cli;

/// Every flag of the commands' own table, by the names addFlags takes.
const QStringList& commandFlags()
{
    static const QStringList flags{"train",
                                   "test",
                                   "columns",
                                   "label-column",
                                   "model-out",
                                   "scores-out",
                                   "trace-out",
                                   "fd-out",
                                   "contamination",
                                   "data",
                                   "data-dir",
                                   "seeds",
                                   "only",
                                   "curves-out",
                                   "hindsight",
                                   "estimators",
                                   "duplicate-anomalies",
                                   "table-out",
                                   "json-out",
                                   "resume",
                                   "lodo",
                                   "reference",
                                   "plot-out",
                                   "export-splits",
                                   "external-scores",
                                   "model",
                                   "data2"};
    return flags;
}

void readAll(const QStringList& args, int mode, QTextStream& out, QTextStream& err)
{
    CommandContext ctx(mode == 2 ? QStringLiteral("adbench") : QStringLiteral("fit"), out, err);
    QCommandLineParser p;
    if (mode == 2) {
        addAdbenchOptions(p);
    } else if (mode == 3) {
        addFlags(p, commandFlags());
    } else {
        addEstimatorOptions(p, mode == 1);
    }
    if (!ctx.parse(p, args)) {
        return; // --help
    }
    const Options o(p);
    std::vector<std::string> warnings;
    if (mode == 0 || mode == 1) {
        settingsFromOptions(o, 200, &warnings, mode == 1, mode == 0 ? "density" : std::string());
    } else if (mode == 2) {
        planAdbench(o, ctx);
    } else {
        for (const QString& flag : commandFlags()) {
            if (o.has(flag)) {
                o.text(flag);
                o.number(flag, 0.0);
                o.number(flag, 1.0, 0.5, 100.0);
                o.integer(flag, 0, INT_MIN);
                o.seed(flag, 0);
            }
        }
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (size == 0 || size > 4096) {
        return 0;
    }
    const int mode = data[0] % 4;
    const QStringList args =
        QString::fromUtf8(reinterpret_cast<const char*>(data + 1), qsizetype(size - 1))
            .split(QLatin1Char('\n'));
    QString outText, errText;
    QTextStream out(&outText), err(&errText);
    try {
        readAll(args, mode, out, err);
    } catch (const ParameterError&) {
    } catch (const DataError&) {
    } catch (const io::OutputError&) {
    }
    return 0;
}
