// SPDX-License-Identifier: MIT
// `sosrep split`: a (stratified) seeded train/test split written as two files.
#include "app/cli/cli_flags.h"
#include "app/cli/cli_runner.h"
#include "app/cli/commands.h"
#include "app/cli/data_loader.h"
#include "core/data/split.h"
#include "core/errors.h"
#include "core/io/table_text.h"

namespace sosrep::cli {

int commandSplit(const QStringList& args, CommandContext& ctx)
{
    QCommandLineParser p;
    addFlags(p, {QStringLiteral("data"), QStringLiteral("label-column"),
                 QStringLiteral("test-fraction"), QStringLiteral("stratify"),
                 QStringLiteral("subsample"), QStringLiteral("seed"), QStringLiteral("train-out"),
                 QStringLiteral("test-out")});
    if (!ctx.parse(p, args)) {
        return ExitOk;
    }
    const Options o(p);
    const QString dataPath = o.required(QStringLiteral("data"));
    ctx.input(dataPath, "--data");
    const QString trainOut = o.required(QStringLiteral("train-out"));
    const QString testOut = o.required(QStringLiteral("test-out"));
    for (const auto& [path, option] :
         {std::pair{trainOut, "--train-out"}, {testOut, "--test-out"}}) {
        if (path.endsWith(QLatin1String(".npz"), Qt::CaseInsensitive)) {
            throw ParameterError(option, "split writes CSV or TSV (.csv/.tsv), not .npz");
        }
        ctx.plan(path, option);
    }
    const uint64_t seed = o.seed(QStringLiteral("seed"), 0);
    const bool stratify = o.has(QStringLiteral("stratify"));
    const double fraction = o.number(QStringLiteral("test-fraction"), 0.3);
    if (!(fraction > 0.0 && fraction < 1.0)) {
        throw ParameterError("--test-fraction", "must lie strictly between 0 and 1");
    }
    const int maxRows = o.integer(QStringLiteral("subsample"), 10000, 2);
    const Dataset full = loadDataset(dataPath, o.text(QStringLiteral("label-column")), {});
    if (stratify && !full.hasLabels()) {
        throw ParameterError("--stratify", "needs labels (--label-column, or y in a .npz)");
    }
    const Dataset data = full.selectRows(subsampleRows(full.rows(), maxRows, seed));
    const SplitIndices s = trainTestSplit(data.rows(), fraction, seed, data.labels, stratify);
    if (s.train.empty() || s.test.empty()) {
        throw DataError(dataPath.toStdString(), 0, 0,
                        "has " + std::to_string(data.rows()) +
                            " rows: too few to give both "
                            "parts a row at this fraction");
    }
    ctx.stage(trainOut, io::datasetText(trainOut.toStdString(), data.selectRows(s.train)));
    ctx.stage(testOut, io::datasetText(testOut.toStdString(), data.selectRows(s.test)));
    ctx.commitOutputs();
    ctx.out() << "split " << data.rows() << " rows (seed " << seed
              << (stratify ? ", stratified" : "") << "): " << s.train.size() << " train -> "
              << trainOut << ", " << s.test.size() << " test -> " << testOut << '\n';
    return ExitOk;
}

} // namespace sosrep::cli
