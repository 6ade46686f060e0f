// SPDX-License-Identifier: MIT
#include "ui/project_file.h"

#include "ui/controller/ratio_controller.h"

#include "core/data/file_bytes.h"
#include "core/errors.h"
#include "ui/controller/estimation_controller.h"
#include "ui/io/project_format.h"

#include <QCryptographicHash>
#include <QFile>
#include <QJsonArray>
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

QString roleName(ColumnRole r)
{
    return r == ColumnRole::Feature ? QStringLiteral("feature")
           : r == ColumnRole::Label ? QStringLiteral("label")
                                    : QStringLiteral("ignore");
}

ColumnRole roleOf(const QString& name)
{
    return name == QLatin1String("label")    ? ColumnRole::Label
           : name == QLatin1String("ignore") ? ColumnRole::Ignore
                                             : ColumnRole::Feature;
}

/// One view's tuning: the purpose, the rule and the length scales of its model.
QJsonObject tuningOf(const FitOutcome& f)
{
    QJsonObject o;
    o[QStringLiteral("purpose")] = QString::fromStdString(f.purpose);
    o[QStringLiteral("rule")] = QString::fromStdString(f.rule);
    QJsonArray scales;
    if (f.search && f.search->selection.memberScales.size() > 1) {
        for (double l : f.search->selection.memberScales) {
            scales.append(l);
        }
    } else {
        scales.append(f.lengthScale);
    }
    o[QStringLiteral("length_scales")] = scales;
    return o;
}

} // namespace

QString saveProject(const QString& path, const EstimationController& c)
{
    if (!c.hasData()) {
        return QStringLiteral("%1: nothing to save: no data loaded").arg(path);
    }
    io::ProjectData p;
    p.toy = c.toyConfig();
    if (!p.toy) {
        p.dataPath = c.dataSource();
        p.sha256 = sha256Of(c.dataSource());
    }
    for (ColumnRole r : c.columnRoles()) {
        p.roles << roleName(r);
    }
    p.plotX = c.plotX();
    p.plotY = c.plotY();
    p.settings = c.settings();
    p.maxFitRows = c.maxFitRows();
    p.compareWith = c.compareChoice();
    p.contamination = c.contamination();
    p.optimizerStep = c.solverComparison().learningRate;
    p.optimizerIterations = c.solverComparison().iterations;
    p.ratio = c.ratio()->toJson();
    if (const FitJobResult* r = c.result(); r && r->fit.search) {
        p.tuning[QStringLiteral("density_view")] = tuningOf(r->fit);
        if (!r->scoresDeferred) { // else the Scores view's model is still being fitted
            p.tuning[QStringLiteral("scores_view")] = tuningOf(r->scoresOutcome());
        }
    }
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(io::projectJson(p)) < 0 || !file.commit()) {
        return QStringLiteral("%1: cannot write project (%2)").arg(path, file.errorString());
    }
    return {};
}

ProjectOpenResult openProject(const QString& path, EstimationController& c)
{
    ProjectOpenResult out;
    io::ProjectData p;
    try {
        const std::vector<unsigned char> bytes = readFileBytes(path.toStdString(), 64 << 20);
        p = io::parseProject(
            QByteArray(reinterpret_cast<const char*>(bytes.data()), qsizetype(bytes.size())), path);
    } catch (const std::exception& e) {
        out.error = QString::fromStdString(e.what());
        return out;
    }
    // The data first: if they cannot be loaded, nothing changes.
    if (p.toy) {
        c.generateToy(p.toy->kind, p.toy->n, p.toy->seed);
    } else {
        if (!c.loadFile(p.dataPath)) {
            out.error =
                QStringLiteral("%1: its data file %2 could not be loaded").arg(path, p.dataPath);
            return out;
        }
        if (sha256Of(p.dataPath) != p.sha256) {
            out.warning =
                QStringLiteral("%1 has changed since the project was saved (SHA-256 differs)")
                    .arg(p.dataPath);
        }
    }
    c.setSettings(p.settings);
    c.setMaxFitRows(p.maxFitRows);
    c.setCompareEstimator(p.compareWith);
    c.setContamination(p.contamination);
    SolverComparisonSettings runs = c.solverComparison();
    runs.learningRate = p.optimizerStep;
    runs.iterations = p.optimizerIterations;
    c.setSolverComparison(runs);
    QVector<ColumnRole> roles;
    for (const QString& r : p.roles) {
        roles << roleOf(r);
    }
    if (roles.size() == c.columnRoles().size()) {
        c.setColumnRoles(roles);
    } else if (out.warning.isEmpty()) {
        out.warning =
            QStringLiteral("the data's columns differ from the project's; default roles used");
    }
    const int nf = int(c.features().cols());
    if (p.plotX < nf && p.plotY < nf) {
        c.setPlotColumns(p.plotX, p.plotY);
    }
    try {
        c.ratio()->restore(p.ratio, false);
    } catch (const std::exception& e) {
        out.warning = QStringLiteral("%1: the Ratio view's settings were not restored: %2")
                          .arg(path, QString::fromStdString(e.what()));
    }
    return out;
}

} // namespace sosrep::ui
