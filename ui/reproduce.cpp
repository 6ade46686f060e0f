// SPDX-License-Identifier: MIT
// The command and the Python that reproduce a view's fit (View > Copy as command / Python).
#include "ui/reproduce.h"

#include "core/estimators/option.h"
#include "ui/controller/session.h"
#include "ui/reproduce_text.h"

#include <stdexcept>

namespace sosrep::ui {
namespace {

/// The purpose the view tunes for: auto is the density's in the density views and the anomaly
/// ranking's in the Scores view (the app's two models); an explicit one is kept.
QString purposeOf(const FitSettings& s, ReproducedView view)
{
    if (!s.values.has("purpose")) {
        return {};
    }
    const QString set = QString::fromStdString(s.values.text("purpose"));
    if (set != QLatin1String("auto")) {
        return set;
    }
    return view == ReproducedView::Scores ? QStringLiteral("anomaly") : QStringLiteral("density");
}

QStringList fitArguments(const Session& session, ReproducedView view, double contamination,
                         const QString& train)
{
    const FitSettings& s = session.settings();
    QStringList args{QStringLiteral("fit"), QStringLiteral("--train"), train};
    args << columnArguments(session.data()) << optionArguments(s);
    if (const QString purpose = purposeOf(s, view); !purpose.isEmpty()) {
        args << QStringLiteral("--purpose") << purpose;
    }
    if (view == ReproducedView::Scores && contamination > 0.0) {
        args << QStringLiteral("--contamination")
             << QString::fromStdString(formatReal(contamination));
    }
    args << QStringLiteral("--scores-out") << QStringLiteral("scores.csv");
    return args;
}

QString pythonScript(const Session& session, ReproducedView view, const QString& train,
                     const QStringList& caveats)
{
    const FitSettings& s = session.settings();
    QStringList lines = commentLines(
        QStringLiteral("SOSREP Studio%1: the %2 view's fit; `scores` holds %3")
            .arg(versionText(),
                 view == ReproducedView::Scores ? QStringLiteral("Scores")
                                                : QStringLiteral("density"),
                 view == ReproducedView::Scores
                     ? QStringLiteral("each row's normality score")
                     : QStringLiteral("each row's log density (per unit of the columns)")),
        caveats);
    lines << QStringLiteral("import numpy as np") << QStringLiteral("import pandas as pd")
          << QStringLiteral("import sosrep") << QString()
          << pythonTableLines(session.data(), train);
    const QString purpose = purposeOf(s, view);
    const QString keywords = pythonKeywords(
        s, purpose.isEmpty() ? QString() : QStringLiteral("purpose=") + pythonString(purpose));
    lines << QStringLiteral("est = sosrep.Estimator(%1%2%3)")
                 .arg(pythonString(QString::fromStdString(s.estimator)),
                      keywords.isEmpty() ? QString() : QStringLiteral(", "), keywords)
          << QStringLiteral("est.fit(X)") << QStringLiteral("scores = est.score_samples(X)");
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

} // namespace

Reproduction reproduce(const Session& session, ReproducedView view, double contamination)
{
    const SessionData& data = session.data();
    if (!data.hasData()) {
        throw std::runtime_error("no data to reproduce: open a file or generate a toy set");
    }
    Reproduction r;
    const QString train = dataPathOf(data, &r.generate);
    const QStringList caveats = loadCaveats(data);
    r.arguments = fitArguments(session, view, contamination, train);
    r.command = commandText(
        QStringLiteral("SOSREP Studio%1: the %2 view's fit; the numbers go to scores.csv")
            .arg(versionText(), view == ReproducedView::Scores ? QStringLiteral("Scores")
                                                               : QStringLiteral("density")),
        caveats, r);
    r.python = pythonScript(session, view, train, caveats);
    if (!r.generate.isEmpty()) {
        insertToyComment(r);
    }
    return r;
}

} // namespace sosrep::ui
