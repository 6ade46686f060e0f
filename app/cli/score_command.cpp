// SPDX-License-Identifier: MIT
// `sosrep score`: a saved model scores new rows.
#include "app/cli/cli_flags.h"
#include "app/cli/cli_runner.h"
#include "app/cli/commands.h"
#include "app/cli/data_loader.h"
#include "app/cli/fit_summary.h"
#include "core/data/preparation.h"
#include "core/io/model_file.h"
#include "core/io/table_text.h"

namespace sosrep::cli {

int commandScore(const QStringList& args, CommandContext& ctx)
{
    QCommandLineParser p;
    addFlags(p, {QStringLiteral("model"), QStringLiteral("data"), QStringLiteral("label-column"),
                 QStringLiteral("id-column"), QStringLiteral("scores-out")});
    if (!ctx.parse(p, args)) {
        return ExitOk;
    }
    const Options o(p);
    const QString modelPath = o.required(QStringLiteral("model"));
    const QString dataPath = o.required(QStringLiteral("data"));
    ctx.input(modelPath, "--model");
    ctx.input(dataPath, "--data");
    const QString outPath = o.required(QStringLiteral("scores-out"));
    ctx.plan(outPath, "--scores-out");

    const io::SavedModel m = io::loadModel(modelPath.toStdString());
    for (const std::string& w : io::savedFitWarnings(m)) {
        // A degenerate fit says so each time its file is used.
        ctx.warn("the model's fit warned: " + w);
    }
    std::vector<std::string> warnings;
    const Dataset raw = loadMatching(dataPath, o.text(QStringLiteral("label-column")), m.columns,
                                     &warnings, o.text(QStringLiteral("id-column")));
    ctx.warn(warnings);
    const Matrix x = applyToOther(m.scaler, raw);
    if (const std::string w = unresolvedSpreadWarning(m.scaler, raw); !w.empty()) {
        ctx.warn(w);
    }
    const std::unique_ptr<FittedModel> model = io::toModel(m, modelPath.toStdString());
    const LogDensity ld = model->logValues(x);
    const std::optional<OutlierThreshold> threshold = io::savedOutlierThreshold(m, *model);
    ctx.stage(outPath,
              io::scoresText(outPath.toStdString(), ld.values, model->kind(), raw.labels,
                             threshold ? std::optional<double>(threshold->offset) : std::nullopt,
                             raw.rowNames, raw.rowNameColumn));
    QJsonObject s;
    s[QStringLiteral("estimator")] = QString::fromStdString(m.settings.estimator);
    if (m.kernel) {
        s[QStringLiteral("kernel")] = QString::fromStdString(toString(m.kernel->type));
        s[QStringLiteral("length_scale")] = m.kernel->lengthScale;
    }
    addUnits(s, *model, m.scaler, m.columns);
    s[QStringLiteral("n_scored")] = static_cast<int>(raw.rows());
    s[QStringLiteral("floored_scores")] = ld.floored;
    warnFloored(ctx, ld, model->kind());
    if (threshold) {
        addThreshold(s, *threshold, ld);
    }
    addAucs(s, ld, raw);
    ctx.finish(s);
    return ExitOk;
}

} // namespace sosrep::cli
