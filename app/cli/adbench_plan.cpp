// SPDX-License-Identifier: MIT
// `sosrep adbench`: its options, the plan they make and the record of a run's options.
#include "app/cli/adbench_plan.h"

#include "app/cli/adbench_external.h"
#include "app/cli/adbench_kinds.h"
#include "app/cli/cli_flags.h"
#include "app/cli/fit_options.h"
#include "core/data/csv_reader.h"
#include "core/errors.h"
#include "core/estimators/registry.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <algorithm>
#include <map>
#include <set>

namespace sosrep::cli {
namespace {

/// The .npz files of the --data-dir folders (comma-separated; each folder is a family, e.g.
/// classical sets and deep-feature embeddings), kept to those matching --only.
std::vector<DataFile> datasetFiles(const Options& o)
{
    const QStringList only =
        o.text(QStringLiteral("only")).split(QLatin1Char(','), Qt::SkipEmptyParts);
    std::vector<DataFile> files;
    for (const QString& folder :
         o.required(QStringLiteral("data-dir")).split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const QDir dir(folder.trimmed());
        if (!dir.exists()) {
            throw ParameterError("--data-dir", folder.trimmed().toStdString() + ": no such folder");
        }
        const QString family = QDir::cleanPath(dir.absolutePath()).section(QLatin1Char('/'), -1);
        for (const QString& f : dir.entryList({QStringLiteral("*.npz")}, QDir::Files, QDir::Name)) {
            if (!only.isEmpty() && std::none_of(only.begin(), only.end(),
                                                [&](const QString& s) { return f.contains(s); })) {
                continue;
            }
            for (const DataFile& other : files) {
                if (other.name == f) {
                    throw ParameterError("--data-dir", f.toStdString() + " is in " +
                                                           other.family.toStdString() + " and " +
                                                           family.toStdString() +
                                                           ": dataset names must be unique");
                }
            }
            files.push_back({dir.filePath(f), f, family});
        }
    }
    if (files.empty()) {
        throw ParameterError("--data-dir",
                             "no .npz files in " +
                                 o.required(QStringLiteral("data-dir")).toStdString());
    }
    return files;
}

/// --families: the folder (the default), the kind of data (adbench_kinds.h), or a CSV file of
/// "dataset,family" lines naming every dataset of the run.
void assignFamilies(const Options& o, std::vector<DataFile>& files, CommandContext& ctx)
{
    const QString how = o.text(QStringLiteral("families"), QStringLiteral("folder"));
    if (how == QLatin1String("folder")) {
        return;
    }
    std::map<QString, QString> given;
    if (how != QLatin1String("kind")) {
        ctx.input(how, "--families");
        QFile file(how);
        if (!file.open(QIODevice::ReadOnly)) {
            throw DataError(how.toStdString(), 0, 0, "cannot be read");
        }
        const QStringList lines = QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'));
        for (int i = 0; i < lines.size(); ++i) {
            const QStringList cells = lines[i].split(QLatin1Char(','));
            if (lines[i].trimmed().isEmpty() ||
                (i == 0 && cells.value(0) == QLatin1String("dataset"))) {
                continue;
            }
            if (cells.size() != 2 || cells[1].trimmed().isEmpty()) {
                throw DataError(how.toStdString(), i + 1, 1, "expected dataset,family");
            }
            given[cells[0].trimmed()] = cells[1].trimmed();
        }
    }
    for (DataFile& f : files) {
        const QString family = how == QLatin1String("kind")
                                   ? adbenchKind(f.name)
                                   : (given.count(f.name) ? given[f.name] : QString());
        if (family.isEmpty()) {
            throw ParameterError("--families", f.name.toStdString() + " has no family in " +
                                                   (how == QLatin1String("kind")
                                                        ? std::string("ADBench's table of kinds")
                                                        : how.toStdString()));
        }
        f.family = family;
    }
}

std::vector<uint64_t> seedList(const Options& o)
{
    std::vector<uint64_t> seeds;
    for (const QString& s :
         o.text(QStringLiteral("seeds"), QStringLiteral("42")).split(QLatin1Char(','))) {
        bool ok = false;
        seeds.push_back(s.toULongLong(&ok));
        if (!ok) {
            throw ParameterError("--seeds", "expected comma-separated integers");
        }
    }
    return seeds;
}

/// One --estimators entry, "knn:k=10": the estimator's defaults, then the fit options given
/// beside --estimators that it has (*taken records them), then the entry's own NAME=VALUE
/// options (the option tables' names), which win.
Method methodOf(const QString& spec, const Options& o, std::set<std::string>* taken)
{
    const QStringList parts = spec.split(QLatin1Char(':'));
    Method m{spec.trimmed(), {}};
    const std::string name = parts.first().trimmed().toStdString();
    EstimatorRegistry::instance().getOf(false, name); // names the family's estimators
    m.settings = FitSettings::defaults(name);
    std::vector<std::string> notHeld;
    for (const std::string& option : applyGivenOptions(o, m.settings, &notHeld)) {
        taken->insert(option);
    }
    for (int i = 1; i < parts.size(); ++i) {
        const QStringList kv = parts[i].split(QLatin1Char('='));
        if (kv.size() != 2) {
            throw ParameterError("--estimators", "'" + parts[i].toStdString() + "' in '" +
                                                     spec.toStdString() +
                                                     "': expected OPTION=VALUE");
        }
        const std::string option = kv[0].trimmed().toStdString();
        try {
            m.settings.values.set(option, kv[1].trimmed().toStdString());
        } catch (const ParameterError& e) {
            throw ParameterError("--estimators", spec.toStdString() + ": " + e.what());
        }
        m.ownPurpose = m.ownPurpose || option == "purpose";
    }
    return m;
}

/// --estimators "sosrep,sosrep:selection=paper,iforest,knn:k=10": each method is an estimator
/// at its defaults with the fit options given beside the flag and its own NAME=VALUE options.
/// Without the flag, one method from the command line's estimator options.
std::vector<Method> methodList(const Options& o, CommandContext& ctx)
{
    std::vector<Method> methods;
    if (!o.has(QStringLiteral("estimators"))) {
        std::vector<std::string> warnings;
        methods.push_back({QString(), settingsFromOptions(o, 0, &warnings, false, "anomaly")});
        methods.back().label = QString::fromStdString(methods.back().settings.estimator);
        methods.back().ownPurpose = o.has(QStringLiteral("purpose"));
        ctx.warn(warnings);
        return methods;
    }
    if (o.has(QStringLiteral("estimator"))) {
        throw ParameterError("--estimator", "give either --estimator or --estimators, not both");
    }
    std::set<std::string> taken;
    for (const QString& spec :
         o.text(QStringLiteral("estimators")).split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        methods.push_back(methodOf(spec, o, &taken));
    }
    if (methods.empty()) {
        throw ParameterError("--estimators", "names no estimator");
    }
    // An option that no method uses would change nothing: a typo or a misunderstanding to say.
    FitSettings probe = FitSettings::defaults(methods.front().settings.estimator);
    std::vector<std::string> notHeld;
    applyGivenOptions(o, probe, &notHeld);
    for (const std::string& option : notHeld) {
        if (!taken.count(option) && option != "purpose") {
            throw ParameterError(cliSpelling(option),
                                 "none of the --estimators methods has this option");
        }
    }
    return methods;
}

/// adbench ranks rows: a method that tunes l and leaves its purpose to the task tunes for
/// anomaly ranking, or for --purpose when given; a method's own purpose=... wins.
void applyPurpose(std::vector<Method>& methods, const Options& o)
{
    const bool given = o.has(QStringLiteral("purpose"));
    const std::string purpose =
        given ? o.text(QStringLiteral("purpose")).toStdString() : std::string("anomaly");
    bool any = false;
    for (Method& m : methods) {
        if (m.settings.values.has("purpose")) {
            any = true;
            if (given && !m.ownPurpose) {
                m.settings.values.set("purpose", purpose); // checked: ParameterError("purpose")
            }
            m.settings.resolvePurpose("anomaly");
        }
    }
    if (given && !any) {
        throw ParameterError("--purpose", "none of the methods has a length scale to tune");
    }
}

/// A folder option: it must exist.
QString folderOption(const Options& o, const char* option)
{
    const QString name = QString::fromLatin1(option + 2);
    if (!o.has(name)) {
        return {};
    }
    const QString dir = o.required(name);
    if (QFileInfo(dir).isFile()) {
        throw ParameterError(option, dir.toStdString() + " is a file: give the folder that " +
                                         (name == QLatin1String("export-splits")
                                              ? "the splits are written to"
                                              : "holds the score files"));
    }
    if (!QDir(dir).exists()) {
        throw ParameterError(option, dir.toStdString() + ": no such folder");
    }
    return dir;
}

QStringList methodLabels(const std::vector<Method>& methods)
{
    QStringList labels;
    for (const Method& m : methods) {
        if (labels.contains(m.label)) {
            throw ParameterError("--estimators", "names " + m.label.toStdString() + " twice");
        }
        labels << m.label;
    }
    return labels;
}

/// --external-scores: one score file per dataset and seed of the run, checked before any run
/// (a missing one, e.g. from another --seeds, would leave that method out of datasets unsaid).
/// Returns the methods the first file names (its header), so --lodo and --reference may name
/// them; files that name others are refused when they are read.
QStringList checkExternalScores(const QString& dir, const std::vector<DataFile>& files,
                                const std::vector<uint64_t>& seeds)
{
    QStringList methods;
    for (const DataFile& file : files) {
        for (uint64_t seed : seeds) {
            const QString path =
                QDir(dir).filePath(splitStem(file.name, seed) + QStringLiteral(".csv"));
            if (!QFileInfo::exists(path)) {
                throw ParameterError("--external-scores",
                                     dir.toStdString() + " has no " +
                                         splitStem(file.name, seed).toStdString() +
                                         ".csv (one score file for each dataset and seed of "
                                         "the run; --only and --seeds select them)");
            }
            if (methods.isEmpty()) {
                for (const std::string& c : readCsvFile(path.toStdString()).columns) {
                    methods << QString::fromStdString(c);
                }
            }
        }
    }
    return methods;
}

/// --lodo "a;b;c": the candidate rules the protocol chooses between, checked before any run
/// (a choice needs two distinct candidates of the run, and two datasets to leave one out of).
QStringList lodoCandidates(const Options& o, const QStringList& methods, size_t datasets)
{
    const QStringList lodo =
        o.text(QStringLiteral("lodo")).split(QLatin1Char(';'), Qt::SkipEmptyParts);
    if (lodo.isEmpty()) {
        if (o.has(QStringLiteral("lodo"))) { // --lodo '' was ignored (issue 52, item 12)
            throw ParameterError("--lodo", "names no method: give two or more, separated by ';'");
        }
        return lodo;
    }
    for (int i = 0; i < lodo.size(); ++i) {
        if (!methods.contains(lodo[i])) {
            throw ParameterError("--lodo",
                                 "'" + lodo[i].toStdString() +
                                     "' is not one of the run's methods (--estimators, or a "
                                     "column of --external-scores' files; separate "
                                     "the family's methods with ';')");
        }
        if (lodo.indexOf(lodo[i]) != i) {
            throw ParameterError("--lodo", "names '" + lodo[i].toStdString() + "' twice");
        }
    }
    if (lodo.size() < 2) {
        throw ParameterError("--lodo", "needs at least two candidate methods to choose between");
    }
    if (datasets < 2) {
        throw ParameterError("--lodo", "needs at least two datasets (one is left out of each "
                                       "choice); --data-dir and --only select " +
                                           std::to_string(datasets));
    }
    return lodo;
}

/// --protocol ours|adbench|paper.
DataProtocol protocolOf(const Options& o)
{
    const QString p = o.text(QStringLiteral("protocol"), QStringLiteral("ours"));
    if (p == QLatin1String("ours")) {
        return DataProtocol::Ours;
    }
    if (p == QLatin1String("adbench")) {
        return DataProtocol::Adbench;
    }
    if (p == QLatin1String("paper")) {
        return DataProtocol::Paper;
    }
    throw ParameterError("--protocol",
                         "'" + p.toStdString() + "' is not one of ours, adbench, paper");
}

} // namespace

void addAdbenchOptions(QCommandLineParser& p)
{
    addEstimatorOptions(p);
    addFlags(p,
             {QStringLiteral("data-dir"), QStringLiteral("seeds"), QStringLiteral("only"),
              QStringLiteral("curves-out"), QStringLiteral("hindsight"),
              QStringLiteral("estimators"), QStringLiteral("duplicate-anomalies"),
              QStringLiteral("protocol"), QStringLiteral("families"), QStringLiteral("summarize"),
              QStringLiteral("table-out"), QStringLiteral("json-out"), QStringLiteral("resume"),
              QStringLiteral("lodo"), QStringLiteral("reference"), QStringLiteral("plot-out"),
              QStringLiteral("export-splits"), QStringLiteral("external-scores")});
}

QByteArray runOptionsText(const AdbenchPlan& plan)
{
    static const char* const names[] = {"ours", "adbench", "paper"};
    QByteArray text = QByteArray("protocol=") + names[int(plan.protocol)] + '\n';
    text += "duplicate_anomalies=" + QByteArray::number(plan.duplicate, 'g', 17) + '\n';
    for (const Method& m : plan.methods) {
        for (const auto& [name, value] : m.settings.values.all()) {
            text += m.label.toUtf8() + '.' + QByteArray::fromStdString(name) + '=' +
                    QByteArray::fromStdString(value) + '\n';
        }
    }
    return text;
}

QString optionsPathOf(const QString& partialPath)
{
    return partialPath + QStringLiteral(".options");
}

AdbenchPlan planAdbench(const Options& o, CommandContext& ctx)
{
    AdbenchPlan plan;
    plan.curvesPath = ctx.plannedOutput(o, "--curves-out");
    plan.tablePath = ctx.plannedOutput(o, "--table-out");
    plan.jsonPath = ctx.plannedOutput(o, "--json-out");
    plan.plotPath = ctx.plannedPlot(o, "--plot-out");
    plan.exportDir = folderOption(o, "--export-splits");
    plan.externalDir = folderOption(o, "--external-scores");
    plan.resume = o.has(QStringLiteral("resume"));
    plan.summarizePath = o.text(QStringLiteral("summarize"));
    if (!plan.summarizePath.isEmpty()) {
        ctx.input(plan.summarizePath, "--summarize");
        for (const char* other : {"resume", "export-splits", "external-scores", "curves-out"}) {
            if (o.has(QString::fromLatin1(other))) {
                throw ParameterError("--summarize", std::string("fits nothing: --") + other +
                                                        " has nothing to do with it");
            }
        }
    }
    if (plan.resume && plan.tablePath.isEmpty()) {
        throw ParameterError("--resume", "needs --table-out (the run resumes from its partial "
                                         "table)");
    }
    plan.files = datasetFiles(o);
    assignFamilies(o, plan.files, ctx);
    plan.seeds = seedList(o);
    plan.methods = methodList(o, ctx);
    applyPurpose(plan.methods, o);
    plan.builtIn = methodLabels(plan.methods);
    if (!plan.exportDir.isEmpty()) {
        for (const DataFile& file : plan.files) {
            for (uint64_t seed : plan.seeds) {
                const QString stem = QDir(plan.exportDir).filePath(splitStem(file.name, seed));
                ctx.plan(stem + QStringLiteral("_train.csv"), "--export-splits");
                ctx.plan(stem + QStringLiteral("_test.csv"), "--export-splits");
            }
        }
    }
    // External methods (their score files' columns) are methods of the run like the built-in
    // ones: --lodo may choose between them and --reference may be one.
    const QStringList external =
        plan.externalDir.isEmpty() ? QStringList()
                                   : checkExternalScores(plan.externalDir, plan.files, plan.seeds);
    plan.lodo = lodoCandidates(o, plan.builtIn + external, plan.files.size());
    plan.reference = o.text(QStringLiteral("reference"));
    if (!plan.reference.isEmpty() && !plan.builtIn.contains(plan.reference) &&
        !external.contains(plan.reference)) {
        throw ParameterError("--reference", "'" + plan.reference.toStdString() +
                                                "' is not one of the methods of the run");
    }
    if (plan.reference.isEmpty() && plan.builtIn.contains(QStringLiteral("iforest"))) {
        plan.reference = QStringLiteral("iforest");
    }
    plan.duplicate = o.number(QStringLiteral("duplicate-anomalies"), 1.0, 1.0, 100.0);
    plan.protocol = protocolOf(o);
    plan.hindsight = o.has(QStringLiteral("hindsight"));
    plan.partialPath =
        plan.tablePath.isEmpty() ? QString() : plan.tablePath + QStringLiteral(".partial");
    return plan;
}

void checkResumedOptions(const AdbenchPlan& plan)
{
    const QString path = optionsPathOf(plan.partialPath);
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        throw ParameterError(
            "--resume", plan.partialPath.toStdString() + " has no record of its run's options (" +
                            path.toStdString() + "): delete it or run without --resume");
    }
    const QList<QByteArray> saved = f.readAll().split('\n');
    const QList<QByteArray> now = runOptionsText(plan).split('\n');
    for (int i = 0; i < std::max(saved.size(), now.size()); ++i) {
        const QByteArray a = i < saved.size() ? saved[i] : QByteArray("(nothing)");
        const QByteArray b = i < now.size() ? now[i] : QByteArray("(nothing)");
        if (a != b) {
            throw ParameterError("--resume", plan.partialPath.toStdString() +
                                                 " was written by a run with other options (" +
                                                 a.toStdString() + " there, " + b.toStdString() +
                                                 " here): delete it or run without --resume");
        }
    }
}

} // namespace sosrep::cli
