// SPDX-License-Identifier: MIT
// `sosrep generate`: the toy data sets written as CSV.
#include "app/cli/cli_flags.h"
#include "app/cli/cli_runner.h"
#include "app/cli/commands.h"
#include "core/data/toy_data.h"
#include "core/errors.h"
#include "core/io/table_text.h"

namespace sosrep::cli {
namespace {

/// Rows `generate` writes at most: 10 million rows are ~400 MB of text.
constexpr int kMaxToyRows = 10000000;

/// Refuses .npz output paths: the writers write delimited text only.
void requireText(const QString& path, const char* option)
{
    if (path.endsWith(QLatin1String(".npz"), Qt::CaseInsensitive)) {
        throw ParameterError(option, "writes CSV or TSV (.csv/.tsv), not .npz");
    }
}

} // namespace

int commandGenerate(const QStringList& args, CommandContext& ctx)
{
    QCommandLineParser p;
    addFlags(p, {QStringLiteral("kind"), QStringLiteral("n"), QStringLiteral("seed"),
                 QStringLiteral("anomalies"), QStringLiteral("out")});
    if (!ctx.parse(p, args)) {
        return ExitOk;
    }
    const Options o(p);
    ToyConfig c;
    c.kind = toyKindFromString(o.required(QStringLiteral("kind")).toStdString());
    c.n = o.integer(QStringLiteral("n"), 500, 1, kMaxToyRows, "(about 400 MB of text)");
    c.seed = o.seed(QStringLiteral("seed"), 0);
    c.anomalyFraction =
        o.number(QStringLiteral("anomalies"), 0.0, 0.0, 1.0, "(a share of the rows)");
    const QString path = o.required(QStringLiteral("out"));
    requireText(path, "--out");
    ctx.plan(path, "--out");
    ctx.stage(path, io::datasetText(path.toStdString(), generateToyData(c)));
    ctx.commitOutputs();
    ctx.out() << "wrote " << c.n << " rows of '" << QString::fromStdString(toString(c.kind))
              << "' (seed " << c.seed << ") to " << path << '\n';
    return ExitOk;
}

} // namespace sosrep::cli
