// SPDX-License-Identifier: MIT
// Opening and saving project files from the app.
#include "ui/project_file.h"

#include "ui/controller/ratio_controller.h"

#include "core/data/file_bytes.h"
#include "core/errors.h"
#include "core/io/project_format.h"
#include "ui/controller/hue_controller.h"
#include "ui/controller/json_bridge.h"
#include "ui/controller/other_roc_controller.h"
#include "ui/controller/session.h"
#include "ui/controller/threshold_controller.h"
#include "ui/density_tab.h"

#include <QCryptographicHash>
#include <QFile>
#include <QSaveFile>

namespace sosrep::ui {
namespace {

QString sha256Of(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        return {};
    }
    QCryptographicHash h(QCryptographicHash::Sha256);
    h.addData(&f);
    return QString::fromLatin1(h.result().toHex());
}

std::string roleName(ColumnRole r)
{
    return r == ColumnRole::Feature   ? "feature"
           : r == ColumnRole::Label   ? "label"
           : r == ColumnRole::RowName ? "row_name"
                                      : "ignore";
}

ColumnRole roleOf(const std::string& name)
{
    return name == "label"      ? ColumnRole::Label
           : name == "ignore"   ? ColumnRole::Ignore
           : name == "row_name" ? ColumnRole::RowName
                                : ColumnRole::Feature;
}

/// One view's tuning: the purpose, the rule and the length scales of its model, and the
/// scaling its length scales are in.
io::Json tuningOf(const FitOutcome& f, ScalingKind scaling)
{
    const bool members = f.search && f.search->selection.memberScales.size() > 1;
    return {{"purpose", f.purpose},
            {"rule", f.rule},
            {"scaling", toString(scaling)},
            {"length_scales",
             members ? f.search->selection.memberScales : std::vector<double>{f.lengthScale}}};
}

} // namespace

QString projectPathFor(const QString& typed)
{
    if (typed.endsWith(QLatin1String(".json"), Qt::CaseInsensitive)) {
        return typed;
    }
    if (typed.endsWith(QLatin1String(".sosrep"), Qt::CaseInsensitive)) {
        return typed + QStringLiteral(".json");
    }
    return typed + QStringLiteral(".sosrep.json");
}

namespace {

std::string mapColoursText(MapScale scale)
{
    return scale == MapScale::Linear       ? "linear"
           : scale == MapScale::Proportion ? "proportion"
                                           : "log";
}

} // namespace

QString saveProject(const QString& path, const ProjectParts& parts)
{
    const Session& c = parts.session;
    if (!c.data().hasData()) {
        return QStringLiteral("%1: nothing to save: no data loaded").arg(path);
    }
    io::ProjectData p;
    p.toy = c.data().toyConfig();
    if (!p.toy) {
        p.dataPath = c.data().dataSource().toStdString();
        p.sha256 = sha256Of(c.data().dataSource()).toStdString();
    }
    for (ColumnRole r : c.data().columnRoles()) {
        p.roles.push_back(roleName(r));
    }
    p.plotX = c.data().plotX();
    p.plotY = c.data().plotY();
    p.settings = c.settings();
    p.maxFitRows = c.settings().values.integer("max_fit_rows");
    p.compareWith = c.compareChoice();
    p.contamination = parts.thresholds.contamination();
    p.hue = parts.hue.column().toStdString();
    p.huePerClassLengthScale = parts.hue.options().perClassLengthScale;
    p.hueCommonNorm = parts.hue.options().commonNorm;
    p.mapColours = mapColoursText(parts.density.mapScale());
    p.joint = parts.density.joint();
    for (const QString& e : parts.otherRocs.estimators()) {
        p.rocWith.push_back(e.toStdString());
    }
    p.optimizerStep = c.solverComparison().learningRate;
    p.optimizerIterations = c.solverComparison().iterations;
    p.ratio = fromQt(parts.ratio.toJson());
    if (const FitJobResult* r = c.result(); r && r->fit.search) {
        p.tuning["density_view"] = tuningOf(r->fit, c.data().scaler().kind);
        if (!r->scoresDeferred) { // else the Scores view's model is still being fitted
            p.tuning["scores_view"] =
                tuningOf(r->scoresOutcome(),
                         r->scoresScaler ? r->scoresScaler->kind : c.data().scaler().kind);
        }
    }
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) ||
        file.write(QByteArray::fromStdString(io::projectJson(p))) < 0 || !file.commit()) {
        return QStringLiteral("%1: cannot write project (%2)").arg(path, file.errorString());
    }
    return {};
}

namespace {

/// The hue and its options, when these data still have its column as one of a few values (its
/// classes are fitted after the next fit); else a warning, unless there is one already.
void restoreHue(const io::ProjectData& p, HueController& hue, QString& warning)
{
    const QString column = QString::fromStdString(p.hue);
    hue.setOptions({p.huePerClassLengthScale, p.hueCommonNorm});
    if (!column.isEmpty() && hue.candidates().contains(column)) {
        hue.setColumn(column);
    } else if (!column.isEmpty() && warning.isEmpty()) {
        warning = QStringLiteral("the hue column %1 is not a column of 2 to %2 values of these "
                                 "data: no hue")
                      .arg(column)
                      .arg(kMaxHueClasses);
    }
}

} // namespace

ProjectOpenResult openProject(const QString& path, const ProjectParts& parts)
{
    Session& c = parts.session;
    ProjectOpenResult out;
    io::ProjectData p;
    try {
        const std::vector<unsigned char> bytes = readFileBytes(path.toStdString(), 64 << 20);
        p = io::parseProject(
            std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()),
            path.toStdString());
    } catch (const std::exception& e) {
        out.error = QString::fromStdString(e.what());
        return out;
    }
    // The data first: if they cannot be loaded, nothing changes.
    if (p.toy) {
        c.generateToy(p.toy->kind, p.toy->n, p.toy->seed);
    } else {
        const QString dataPath = QString::fromStdString(p.dataPath);
        if (!c.loadFile(dataPath)) {
            out.error =
                QStringLiteral("%1: its data file %2 could not be loaded").arg(path, dataPath);
            return out;
        }
        if (sha256Of(dataPath).toStdString() != p.sha256) {
            out.warning =
                QStringLiteral("%1 has changed since the project was saved (SHA-256 differs)")
                    .arg(dataPath);
        }
    }
    c.setSettings(p.settings);
    c.setOption("max_fit_rows", std::to_string(p.maxFitRows));
    c.setCompareEstimator(p.compareWith);
    parts.thresholds.setContamination(p.contamination);
    SolverComparisonSettings runs = c.solverComparison();
    runs.learningRate = p.optimizerStep;
    runs.iterations = p.optimizerIterations;
    c.setSolverComparison(runs);
    QVector<ColumnRole> roles;
    for (const std::string& r : p.roles) {
        roles << roleOf(r);
    }
    if (roles.size() == c.data().columnRoles().size()) {
        c.setColumnRoles(roles);
    } else if (out.warning.isEmpty()) {
        out.warning =
            QStringLiteral("the data's columns differ from the project's; default roles used");
    }
    const int nf = int(c.data().features().cols());
    if (p.plotX < nf && p.plotY < nf) {
        c.setPlotColumns(p.plotX, p.plotY);
    }
    restoreHue(p, parts.hue, out.warning);
    parts.density.setMapScale(p.mapColours == "linear"       ? MapScale::Linear
                              : p.mapColours == "proportion" ? MapScale::Proportion
                                                             : MapScale::Log);
    parts.density.setJoint(p.joint);
    QStringList rocWith; // after the data: other data clear the choice
    for (const std::string& e : p.rocWith) {
        rocWith << QString::fromStdString(e);
    }
    parts.otherRocs.setEstimators(rocWith);
    try {
        parts.ratio.restore(toQt(p.ratio), false);
    } catch (const std::exception& e) {
        out.warning = QStringLiteral("%1: the Ratio view's settings were not restored: %2")
                          .arg(path, QString::fromStdString(e.what()));
    }
    return out;
}

} // namespace sosrep::ui
