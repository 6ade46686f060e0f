// SPDX-License-Identifier: MIT
// The command and the Python that reproduce the Ratio view's fit (View > Copy as command /
// Python on the Ratio tab): `sosrep ratio` with the view's p, q and estimator.
#include "core/estimators/option.h"
#include "ui/controller/ratio_controller.h"
#include "ui/controller/session.h"
#include "ui/reproduce.h"
#include "ui/reproduce_text.h"

#include <QFileInfo>

#include <algorithm>
#include <stdexcept>

namespace sosrep::ui {
namespace {

QString realText(double v)
{
    return QString::fromStdString(formatReal(v));
}

bool isSplit(const RatioSource& s)
{
    return s.kind == RatioSource::Column || s.kind == RatioSource::Rect;
}

/// The rectangle as --q-inside reads it: X=low:high,Y=low:high (raw units, edges included).
QString rectangleText(const RatioSource& s, const QStringList& features)
{
    return QStringLiteral("%1=%2:%3,%4=%5:%6")
        .arg(features.value(s.xColumn), realText(std::min(s.x0, s.x1)),
             realText(std::max(s.x0, s.x1)), features.value(s.yColumn),
             realText(std::min(s.y0, s.y1)), realText(std::max(s.y0, s.y1)));
}

/// Where q comes from, as `sosrep ratio`'s flags.
QStringList qArguments(const RatioController& ratio, const QStringList& features)
{
    const RatioSource& s = ratio.source();
    const RatioQMode& mode = ratio.qMode();
    if (mode.kind == RatioQMode::Expression) {
        return {QStringLiteral("--q-function"), mode.expression};
    }
    if (mode.kind == RatioQMode::Inverse) {
        return {QStringLiteral("--inverse")};
    }
    QStringList args;
    switch (s.kind) {
    case RatioSource::None:
        throw std::runtime_error("the Ratio view has no q rows yet: load a second file, or "
                                 "split the data");
    case RatioSource::File:
        args << QStringLiteral("--q") << QFileInfo(s.path).absoluteFilePath();
        break;
    case RatioSource::Column:
        args << QStringLiteral("--q-where") << s.column + QLatin1Char('=') + realText(s.value);
        break;
    case RatioSource::Rect:
        args << QStringLiteral("--q-inside") << rectangleText(s, features);
        break;
    }
    if (isSplit(s) && s.pAll) {
        args << QStringLiteral("--p-all");
    }
    if (mode.kind == RatioQMode::Density) {
        args << QStringLiteral("--q-density") << QString::fromStdString(mode.densityEstimator);
    }
    return args;
}

/// A column of the loaded file in the Python's `data` (the label or a column the roles leave
/// out as well as a feature), as an array.
QString pythonColumn(const SessionData& data, const QString& path, const QString& name)
{
    if (!path.endsWith(QLatin1String(".npz"), Qt::CaseInsensitive)) {
        return QStringLiteral("data.loc[X.index, %1].to_numpy()").arg(pythonString(name));
    }
    if (name == QLatin1String("y")) {
        return QStringLiteral("data[\"y\"]");
    }
    const auto& columns = data.rawData().columns;
    const auto at = std::find(columns.begin(), columns.end(), name.toStdString());
    return QStringLiteral("data[\"X\"][:, %1]").arg(at - columns.begin());
}

/// A feature of the Python's `X` (a DataFrame of a CSV, an array of a .npz), as an array.
QString pythonFeature(const QString& path, const QStringList& features, int j)
{
    return path.endsWith(QLatin1String(".npz"), Qt::CaseInsensitive)
               ? QStringLiteral("X[:, %1]").arg(j)
               : QStringLiteral("X[%1].to_numpy()").arg(pythonString(features.value(j)));
}

/// The Python lines that make P and Q (or only P for a q known as a function).
QStringList pythonSamples(const SessionData& data, const RatioController& ratio,
                          const QString& path)
{
    const RatioSource& s = ratio.source();
    const QStringList features = data.featureNames();
    QStringList lines;
    if (!ratio.qMode().needsQRows() || s.kind == RatioSource::File) {
        lines << QStringLiteral("P = X");
        if (ratio.qMode().needsQRows()) {
            const QString q = QFileInfo(s.path).absoluteFilePath();
            QStringList quoted;
            for (const QString& f : features) {
                quoted << pythonString(f);
            }
            lines << (q.endsWith(QLatin1String(".npz"), Qt::CaseInsensitive)
                          ? QStringLiteral("Q = np.load(%1)[\"X\"]").arg(pythonString(q))
                          : QStringLiteral("Q = pd.read_csv(%1, sep=%2, "
                                           "float_precision=\"round_trip\")[[%3]]")
                                .arg(pythonString(q), pythonString(delimiterOf(q)),
                                     quoted.join(QStringLiteral(", "))));
        }
        return lines;
    }
    if (s.kind == RatioSource::Column) {
        lines << QStringLiteral("in_q = %1 == %2")
                     .arg(pythonColumn(data, path, s.column), realText(s.value));
    } else {
        const auto side = [&](int j, double a, double b) {
            const QString v = pythonFeature(path, features, j);
            return QStringLiteral("(%1 >= %2) & (%1 <= %3)")
                .arg(v, realText(std::min(a, b)), realText(std::max(a, b)));
        };
        lines << QStringLiteral("in_q = %1 & %2")
                     .arg(side(s.xColumn, s.x0, s.x1), side(s.yColumn, s.y0, s.y1));
    }
    lines << (s.pAll ? QStringLiteral("P = X") : QStringLiteral("P = X[~in_q]"))
          << QStringLiteral("Q = X[in_q]");
    return lines;
}

/// The fit call: Type I with Q, q's density of Q, or q as a function of the rows.
QString pythonFitCall(const RatioQMode& mode)
{
    switch (mode.kind) {
    case RatioQMode::Sample:
        break;
    case RatioQMode::Density:
        return QStringLiteral("est.fit(P, Q, q_density=%1)")
            .arg(pythonString(QString::fromStdString(mode.densityEstimator)));
    case RatioQMode::Expression:
        return QStringLiteral("est.fit(P, q=sosrep.q_function(%1))")
            .arg(pythonString(mode.expression));
    case RatioQMode::Inverse:
        return QStringLiteral("est.fit(P, q=lambda rows: np.ones(len(rows)))");
    }
    return QStringLiteral("est.fit(P, Q)");
}

/// Said in the copied text when the view shows another lambda than the fit's.
QStringList ratioCaveats(const RatioController& ratio)
{
    const RatioResult* r = ratio.result();
    if (!r || !r->model || !r->shown || r->shown == r->model) {
        return {};
    }
    return {QStringLiteral("the view shows lambda = %1 (the slider); the fit's, which this "
                           "reproduces, is %2")
                .arg(realText(r->shown->lambda()), realText(r->model->lambda()))};
}

} // namespace

Reproduction reproduceRatio(const Session& session, const RatioController& ratio)
{
    const SessionData& data = session.data();
    if (!data.hasData()) {
        throw std::runtime_error("no data to reproduce: open a file or generate a toy set");
    }
    Reproduction r;
    const QString path = dataPathOf(data, &r.generate);
    const QStringList features = data.featureNames();
    r.arguments = QStringList{QStringLiteral("ratio"), QStringLiteral("--p"), path}
                  << columnArguments(data) << qArguments(ratio, features)
                  << optionArguments(ratio.settings()) << QStringLiteral("--weights-out")
                  << QStringLiteral("weights.csv");
    const QStringList caveats = loadCaveats(data) + ratioCaveats(ratio);
    r.command = commandText(QStringLiteral("SOSREP Studio%1: the Ratio view's fit; the "
                                           "importance weights go to weights.csv")
                                .arg(versionText()),
                            caveats, r);

    const FitSettings& s = ratio.settings();
    QStringList py = commentLines(QStringLiteral("SOSREP Studio%1: the Ratio view's fit; "
                                                 "`weights` holds the importance weights q/p "
                                                 "at the rows of P")
                                      .arg(versionText()),
                                  caveats);
    const QString keywords = pythonKeywords(s);
    py << QStringLiteral("import numpy as np") << QStringLiteral("import pandas as pd")
       << QStringLiteral("import sosrep") << QString() << pythonTableLines(data, path)
       << pythonSamples(data, ratio, path)
       << QStringLiteral("est = sosrep.Estimator(%1%2%3)")
              .arg(pythonString(QString::fromStdString(s.estimator)),
                   keywords.isEmpty() ? QString() : QStringLiteral(", "), keywords)
       << pythonFitCall(ratio.qMode()) << QStringLiteral("weights = est.weights_");
    r.python = py.join(QLatin1Char('\n')) + QLatin1Char('\n');
    if (!r.generate.isEmpty()) {
        insertToyComment(r);
    }
    return r;
}

} // namespace sosrep::ui
