// SPDX-License-Identifier: MIT
// The command and the Python that reproduce a view's fit (View > Copy as command / Python).
#include "ui/reproduce.h"

#include "core/data/csv_reader.h"
#include "core/data/toy_data.h"
#include "core/estimators/fit_settings.h"
#include "core/estimators/option.h"
#include "ui/controller/session.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>

#include <stdexcept>

namespace sosrep::ui {
namespace {

/// " 0.1.0" (the app's version, which the copied text names), or "" outside the app.
QString versionText()
{
    const QString v = QCoreApplication::applicationVersion();
    return v.isEmpty() ? QString() : QLatin1Char(' ') + v;
}

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

/// Options that differ from the estimator's defaults, and the seed always (name, value).
std::vector<std::pair<std::string, std::string>> changedOptions(const FitSettings& s)
{
    const FitSettings defaults = FitSettings::defaults(s.estimator);
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& [name, value] : s.values.all()) {
        if (name == "purpose") {
            continue; // by the view (purposeOf)
        }
        const bool changed = !defaults.values.has(name) || defaults.values.text(name) != value;
        if (changed || name == "seed") {
            out.emplace_back(name, value);
        }
    }
    return out;
}

/// The Python keyword of an option (the package's keyword_of: lambda is lam).
QString keywordOf(const std::string& name)
{
    QString k = QString::fromStdString(name).replace(QLatin1Char('-'), QLatin1Char('_'));
    return k == QLatin1String("lambda") ? QStringLiteral("lam") : k;
}

QString pythonString(const QString& text)
{
    QString s = text;
    s.replace(QLatin1Char('\\'), QStringLiteral("\\\\"))
        .replace(QLatin1Char('"'), QStringLiteral("\\\""))
        .replace(QLatin1Char('\t'), QStringLiteral("\\t"));
    return QLatin1Char('"') + s + QLatin1Char('"');
}

/// An option's value as the Python literal its keyword takes.
QString pythonValue(const OptionSpec* spec, const std::string& value)
{
    const QString text = QString::fromStdString(value);
    if (!spec) {
        return pythonString(text);
    }
    switch (spec->type) {
    case OptionType::Integer:
    case OptionType::Seed:
    case OptionType::Real:
        return text;
    case OptionType::RealOrChoice:
        for (const std::string& c : spec->choices) {
            if (c == value) {
                return pythonString(text);
            }
        }
        return text;
    case OptionType::Choice:
        break;
    }
    return pythonString(text);
}

/// The delimiter the reader detects in the file's header (detectDelimiter), for pandas.
QString delimiterOf(const QString& path)
{
    QFile f(path);
    const QByteArray header = f.open(QIODevice::ReadOnly) ? f.readLine() : QByteArray();
    const char d = detectDelimiter(header.toStdString());
    return QString(QLatin1Char(d));
}

/// What the app read that the command line would not: said in the copied text.
QStringList loadCaveats(const SessionData& data)
{
    QStringList out;
    for (const QString& note : data.loadNotes()) {
        if (note.contains(QLatin1String("left out")) ||
            note.contains(QLatin1String("categories"))) {
            out << QStringLiteral("the app's load: %1 (the command line refuses such a file)")
                       .arg(note);
        }
    }
    return out;
}

QStringList fitArguments(const Session& session, ReproducedView view, double contamination,
                         const QString& train)
{
    const SessionData& data = session.data();
    const FitSettings& s = session.settings();
    const Dataset& raw = data.rawData();
    QStringList args{QStringLiteral("fit"), QStringLiteral("--train"), train};
    // The features, when the roles leave out a column the command line would take.
    QStringList others;
    QString idColumn = QString::fromStdString(raw.rowNameColumn);
    const QVector<ColumnRole> roles = data.columnRoles();
    for (int j = 0; j < roles.size(); ++j) {
        if (roles[j] == ColumnRole::Ignore) {
            others << QString::fromStdString(raw.columns[size_t(j)]);
        } else if (roles[j] == ColumnRole::RowName) {
            idColumn = QString::fromStdString(raw.columns[size_t(j)]);
        }
    }
    if (!others.isEmpty()) {
        args << QStringLiteral("--columns") << data.featureNames().join(QLatin1Char(','));
    }
    if (!data.labelColumn().isEmpty()) {
        args << QStringLiteral("--label-column") << data.labelColumn();
    }
    if (!idColumn.isEmpty()) {
        args << QStringLiteral("--id-column") << idColumn;
    }
    args << QStringLiteral("--estimator") << QString::fromStdString(s.estimator);
    for (const auto& [name, value] : changedOptions(s)) {
        const OptionSpec* spec = s.values.spec(name);
        args << QString::fromStdString(spec ? spec->cliFlag() : "--" + name)
             << QString::fromStdString(value);
    }
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
    const SessionData& data = session.data();
    const FitSettings& s = session.settings();
    QStringList lines;
    lines << QStringLiteral("# SOSREP Studio%1: the %2 view's fit; `scores` holds %3")
                 .arg(versionText(),
                      view == ReproducedView::Scores ? QStringLiteral("Scores")
                                                     : QStringLiteral("density"),
                      view == ReproducedView::Scores
                          ? QStringLiteral("each row's normality score")
                          : QStringLiteral("each row's log density (per unit of the columns)"));
    for (const QString& c : caveats) {
        lines << QStringLiteral("# ") + c;
    }
    lines << QStringLiteral("import numpy as np") << QStringLiteral("import pandas as pd")
          << QStringLiteral("import sosrep") << QString();
    QStringList quoted;
    for (const QString& f : data.featureNames()) {
        quoted << pythonString(f);
    }
    if (train.endsWith(QLatin1String(".npz"), Qt::CaseInsensitive)) {
        QStringList indices;
        const auto& columns = data.rawData().columns;
        for (const QString& f : data.featureNames()) {
            const auto at = std::find(columns.begin(), columns.end(), f.toStdString());
            indices << QString::number(at - columns.begin());
        }
        lines << QStringLiteral("X = np.load(%1)[\"X\"][:, [%2]].astype(float)")
                     .arg(pythonString(train), indices.join(QStringLiteral(", ")));
    } else {
        // Exact decimal reading (round_trip), as the app's reader; rows with a missing value
        // or a word among the features are left out, as the app left them out when asked.
        lines << QStringLiteral("data = pd.read_csv(%1, sep=%2, float_precision=\"round_trip\")")
                     .arg(pythonString(train), pythonString(delimiterOf(train)))
              << QStringLiteral("X = data[[%1]].apply(pd.to_numeric, errors=\"coerce\").dropna()")
                     .arg(quoted.join(QStringLiteral(", ")));
    }
    QStringList keywords;
    for (const auto& [name, value] : changedOptions(s)) {
        keywords << keywordOf(name) + QLatin1Char('=') + pythonValue(s.values.spec(name), value);
    }
    if (const QString purpose = purposeOf(s, view); !purpose.isEmpty()) {
        keywords << QStringLiteral("purpose=") + pythonString(purpose);
    }
    lines << QStringLiteral("est = sosrep.Estimator(%1%2%3)")
                 .arg(pythonString(QString::fromStdString(s.estimator)),
                      keywords.isEmpty() ? QString() : QStringLiteral(", "),
                      keywords.join(QStringLiteral(", ")))
          << QStringLiteral("est.fit(X)") << QStringLiteral("scores = est.score_samples(X)");
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

} // namespace

QString shellQuoted(const QString& text)
{
    static const QRegularExpression plain(QStringLiteral("^[A-Za-z0-9_@%+=:,./-]+$"));
    if (plain.match(text).hasMatch()) {
        return text;
    }
    QString s = text;
    s.replace(QLatin1Char('\''), QStringLiteral("'\\''"));
    return QLatin1Char('\'') + s + QLatin1Char('\'');
}

Reproduction reproduce(const Session& session, ReproducedView view, double contamination)
{
    const SessionData& data = session.data();
    if (!data.hasData()) {
        throw std::runtime_error("no data to reproduce: open a file or generate a toy set");
    }
    Reproduction r;
    QString train = data.dataSource();
    if (const auto& toy = data.toyConfig()) {
        // The toy rows as the command line generates them (the same rows: ToyConfig).
        train = QStringLiteral("toy.csv");
        r.generate = QStringList{QStringLiteral("generate"),
                                 QStringLiteral("--kind"),
                                 QString::fromStdString(toString(toy->kind)),
                                 QStringLiteral("--n"),
                                 QString::number(toy->n),
                                 QStringLiteral("--seed"),
                                 QString::number(toy->seed),
                                 QStringLiteral("--anomalies"),
                                 QString::fromStdString(formatReal(toy->anomalyFraction)),
                                 QStringLiteral("--out"),
                                 train};
    } else {
        train = QFileInfo(train).absoluteFilePath();
    }
    const QStringList caveats = loadCaveats(data);
    r.arguments = fitArguments(session, view, contamination, train);
    QStringList lines;
    lines << QStringLiteral("# SOSREP Studio%1: the %2 view's fit; the numbers go to scores.csv")
                 .arg(versionText(), view == ReproducedView::Scores ? QStringLiteral("Scores")
                                                                    : QStringLiteral("density"));
    for (const QString& c : caveats) {
        lines << QStringLiteral("# ") + c;
    }
    const auto commandOf = [](const QStringList& args) {
        QStringList words{QStringLiteral("sosrep")};
        for (const QString& a : args) {
            words << shellQuoted(a);
        }
        return words.join(QLatin1Char(' '));
    };
    if (!r.generate.isEmpty()) {
        lines << commandOf(r.generate);
    }
    lines << commandOf(r.arguments);
    r.command = lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
    r.python = pythonScript(session, view, train, caveats);
    if (!r.generate.isEmpty()) {
        r.python.insert(r.python.indexOf(QStringLiteral("import numpy")),
                        QStringLiteral("# toy.csv: ") + commandOf(r.generate) + QLatin1Char('\n'));
    }
    return r;
}

} // namespace sosrep::ui
