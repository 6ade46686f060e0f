// SPDX-License-Identifier: MIT
// The pieces of the copied command and Python that every view's reproduction shares.
#include "ui/reproduce_text.h"

#include "core/data/csv_reader.h"
#include "core/data/toy_data.h"
#include "core/estimators/option.h"
#include "ui/controller/session.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>

namespace sosrep::ui {

/// " 0.1.0" (the app's version, which the copied text names), or "" outside the app.
QString versionText()
{
    const QString v = QCoreApplication::applicationVersion();
    return v.isEmpty() ? QString() : QLatin1Char(' ') + v;
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

QStringList columnArguments(const SessionData& data)
{
    const Dataset& raw = data.rawData();
    QStringList args;
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
    return args;
}

QStringList optionArguments(const FitSettings& s)
{
    QStringList args{QStringLiteral("--estimator"), QString::fromStdString(s.estimator)};
    for (const auto& [name, value] : changedOptions(s)) {
        const OptionSpec* spec = s.values.spec(name);
        args << QString::fromStdString(spec ? spec->cliFlag() : "--" + name)
             << QString::fromStdString(value);
    }
    return args;
}

QString pythonKeywords(const FitSettings& s, const QString& extra)
{
    QStringList keywords;
    for (const auto& [name, value] : changedOptions(s)) {
        keywords << keywordOf(name) + QLatin1Char('=') + pythonValue(s.values.spec(name), value);
    }
    if (!extra.isEmpty()) {
        keywords << extra;
    }
    return keywords.join(QStringLiteral(", "));
}

QString commandLine(const QStringList& args)
{
    QStringList words{QStringLiteral("sosrep")};
    for (const QString& a : args) {
        words << shellQuoted(a);
    }
    return words.join(QLatin1Char(' '));
}

QStringList pythonTableLines(const SessionData& data, const QString& path)
{
    QStringList quoted;
    for (const QString& f : data.featureNames()) {
        quoted << pythonString(f);
    }
    if (path.endsWith(QLatin1String(".npz"), Qt::CaseInsensitive)) {
        QStringList indices;
        const auto& columns = data.rawData().columns;
        for (const QString& f : data.featureNames()) {
            const auto at = std::find(columns.begin(), columns.end(), f.toStdString());
            indices << QString::number(at - columns.begin());
        }
        return {QStringLiteral("data = np.load(%1)").arg(pythonString(path)),
                QStringLiteral("X = data[\"X\"][:, [%1]].astype(float)")
                    .arg(indices.join(QStringLiteral(", ")))};
    }
    // Exact decimal reading (round_trip), as the app's reader; rows with a missing value or a
    // word among the features are left out, as the app left them out when asked.
    return {QStringLiteral("data = pd.read_csv(%1, sep=%2, float_precision=\"round_trip\")")
                .arg(pythonString(path), pythonString(delimiterOf(path))),
            QStringLiteral("X = data[[%1]].apply(pd.to_numeric, errors=\"coerce\").dropna()")
                .arg(quoted.join(QStringLiteral(", ")))};
}

QString dataPathOf(const SessionData& data, QStringList* generate)
{
    const auto& toy = data.toyConfig();
    if (!toy) {
        return QFileInfo(data.dataSource()).absoluteFilePath();
    }
    // The toy rows as the command line generates them (the same rows: ToyConfig).
    const QString path = QStringLiteral("toy.csv");
    *generate = QStringList{QStringLiteral("generate"),
                            QStringLiteral("--kind"),
                            QString::fromStdString(toString(toy->kind)),
                            QStringLiteral("--n"),
                            QString::number(toy->n),
                            QStringLiteral("--seed"),
                            QString::number(toy->seed),
                            QStringLiteral("--anomalies"),
                            QString::fromStdString(formatReal(toy->anomalyFraction)),
                            QStringLiteral("--out"),
                            path};
    return path;
}

QStringList commentLines(const QString& header, const QStringList& caveats)
{
    QStringList lines{QStringLiteral("# ") + header};
    for (const QString& c : caveats) {
        lines << QStringLiteral("# ") + c;
    }
    return lines;
}

QString commandText(const QString& header, const QStringList& caveats, const Reproduction& r)
{
    QStringList lines = commentLines(header, caveats);
    if (!r.generate.isEmpty()) {
        lines << commandLine(r.generate);
    }
    lines << commandLine(r.arguments);
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

void insertToyComment(Reproduction& r)
{
    r.python.insert(r.python.indexOf(QStringLiteral("import numpy")),
                    QStringLiteral("# toy.csv: ") + commandLine(r.generate) + QLatin1Char('\n'));
}

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

} // namespace sosrep::ui
