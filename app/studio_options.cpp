// SPDX-License-Identifier: MIT
// sosrep-studio's option values checked up front (studio_options.h).
#include "app/studio_options.h"

#include "core/data/scaler.h"
#include "core/errors.h"
#include "core/estimators/common_options.h"
#include "core/estimators/fit_settings.h"
#include "core/estimators/registry.h"
#include "core/io/output_set.h"
#include "core/pipeline/outlier_threshold.h"

#include <QFileInfo>
#include <QImageWriter>

#include <tuple>

#include <cmath>

namespace sosrep::app {
namespace {

QString estimatorProblem(const QCommandLineParser& parser, const char* option, bool ratios)
{
    if (!parser.isSet(QString::fromLatin1(option))) {
        return {};
    }
    try {
        EstimatorRegistry::instance().getOf(
            ratios, parser.value(QString::fromLatin1(option)).toStdString());
    } catch (const ParameterError& e) {
        return QStringLiteral("--%1: %2")
            .arg(QString::fromLatin1(option), QString::fromStdString(e.message()));
    }
    return {};
}

QString tabProblem(const QCommandLineParser& parser)
{
    if (!parser.isSet(QStringLiteral("tab"))) {
        return {};
    }
    bool ok = false;
    const int tab = parser.value(QStringLiteral("tab")).toInt(&ok);
    if (!ok || tab < 0 || tab > 5) {
        return QStringLiteral("--tab: '%1' is not a tab number from 0 to 5 (density, optimizer, "
                              "Fisher divergence, scores, compare, ratio)")
            .arg(parser.value(QStringLiteral("tab")));
    }
    return {};
}

QString sizeProblem(const QCommandLineParser& parser)
{
    if (!parser.isSet(QStringLiteral("size"))) {
        return {};
    }
    const QSize s = askedSize(parser);
    if (s.width() <= 0 || s.height() <= 0) {
        return QStringLiteral("--size: '%1' is not WIDTHxHEIGHT, e.g. 1280x720")
            .arg(parser.value(QStringLiteral("size")));
    }
    if (s.width() > kMaxShotSide || s.height() > kMaxShotSide) {
        return QStringLiteral("--size: %1x%2 is larger than %3x%3 (a screenshot that large "
                              "needs gigabytes)")
            .arg(s.width())
            .arg(s.height())
            .arg(kMaxShotSide);
    }
    return {};
}

QString splitProblem(const QCommandLineParser& parser)
{
    if (!parser.isSet(QStringLiteral("ratio-split"))) {
        return {};
    }
    const QString split = parser.value(QStringLiteral("ratio-split"));
    bool ok = false;
    split.section(QLatin1Char('='), 1).toDouble(&ok);
    if (!split.contains(QLatin1Char('=')) || split.section(QLatin1Char('='), 0, 0).isEmpty() ||
        !ok) {
        return QStringLiteral("--ratio-split: '%1' is not COLUMN=NUMBER (q = the rows whose "
                              "COLUMN equals NUMBER), e.g. label=1")
            .arg(split);
    }
    return {};
}

QString outputProblem(const QCommandLineParser& parser)
{
    const QString plot = parser.value(QStringLiteral("export-plot"));
    const QString suffix = QFileInfo(plot).suffix().toLower();
    if (!plot.isEmpty() && suffix != QLatin1String("png") && suffix != QLatin1String("pdf") &&
        suffix != QLatin1String("svg")) {
        return QStringLiteral("--export-plot: '%1' is not a .png, .pdf or .svg file").arg(plot);
    }
    const QString shot = parser.value(QStringLiteral("screenshot"));
    const QByteArray format = QFileInfo(shot).suffix().toLower().toLatin1();
    if (!shot.isEmpty() && !QImageWriter::supportedImageFormats().contains(format)) {
        return QStringLiteral("--screenshot: '%1' is not an image file this build writes (use "
                              ".png)")
            .arg(shot);
    }
    // Each output's folder is checked now, as sosrep's are, not after the fit (issue 52: a
    // missing folder was said 21 s into a large file's fit): it exists and can be written, the
    // output is not a folder, not the data file and not the other output.
    io::OutputSet outputs;
    try {
        for (const QString& file : parser.positionalArguments()) {
            outputs.addInput(file.toStdString(), "FILE");
        }
        for (const char* option : {"export-plot", "screenshot"}) {
            const QString path = parser.value(QString::fromLatin1(option));
            if (!path.isEmpty()) {
                outputs.plan(path.toStdString(), std::string("--") + option);
            }
        }
    } catch (const ParameterError& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

/// --purpose: one of the tuning purposes, for an estimator that has a length scale to tune.
QString purposeProblem(const QCommandLineParser& parser)
{
    if (!parser.isSet(QStringLiteral("purpose"))) {
        return {};
    }
    const QString purpose = parser.value(QStringLiteral("purpose"));
    if (purpose != QLatin1String("auto") && purpose != QLatin1String("density") &&
        purpose != QLatin1String("anomaly")) {
        return QStringLiteral("--purpose: '%1' is not one of auto, density, anomaly").arg(purpose);
    }
    const std::string estimator = parser.isSet(QStringLiteral("estimator"))
                                      ? parser.value(QStringLiteral("estimator")).toStdString()
                                      : std::string("sosrep");
    bool tunes = true;
    try {
        tunes = FitSettings::defaults(estimator).values.has("purpose");
    } catch (const ParameterError&) {
        // An unknown --estimator: its own problem says so.
    }
    if (!tunes) {
        return QStringLiteral("--purpose: the %1 estimator has no length scale to tune")
            .arg(QString::fromStdString(estimator));
    }
    return {};
}

/// --scale: one of the scalings of the option table.
QString scaleProblem(const QCommandLineParser& parser)
{
    if (!parser.isSet(QStringLiteral("scale"))) {
        return {};
    }
    try {
        scalingKindFromString(parser.value(QStringLiteral("scale")).toStdString());
    } catch (const ParameterError& e) {
        return QStringLiteral("--scale: ") + QString::fromStdString(e.message());
    }
    return {};
}

/// --bw-adjust: a positive multiplier, for an estimator with a length scale.
QString bwAdjustProblem(const QCommandLineParser& parser)
{
    if (!parser.isSet(QStringLiteral("bw-adjust"))) {
        return {};
    }
    try {
        OptionValues v(kernelOptions());
        v.set("bw_adjust", parser.value(QStringLiteral("bw-adjust")).toStdString());
    } catch (const ParameterError& e) {
        return QStringLiteral("--bw-adjust: ") + QString::fromStdString(e.message());
    }
    const std::string estimator = parser.isSet(QStringLiteral("estimator"))
                                      ? parser.value(QStringLiteral("estimator")).toStdString()
                                      : std::string("sosrep");
    try {
        if (!FitSettings::defaults(estimator).values.has("bw_adjust")) {
            return QStringLiteral("--bw-adjust: the %1 estimator has no length scale")
                .arg(QString::fromStdString(estimator));
        }
    } catch (const std::exception&) {
        // An unknown --estimator: its own problem says so.
    }
    return {};
}

QString contaminationProblem(const QCommandLineParser& parser)
{
    if (!parser.isSet(QStringLiteral("contamination"))) {
        return {};
    }
    try {
        parseContamination(parser.value(QStringLiteral("contamination")).toStdString());
    } catch (const ParameterError& e) {
        return QStringLiteral("--contamination: ") + QString::fromStdString(e.message());
    }
    return {};
}

/// --marginal shows a 1-D view of the Density tab: other tabs or runs would hide it.
QString marginalProblem(const QCommandLineParser& parser)
{
    if (!parser.isSet(QStringLiteral("marginal"))) {
        return {};
    }
    if (parser.isSet(QStringLiteral("tab")) && parser.value(QStringLiteral("tab")) != "0") {
        return QStringLiteral("--marginal: it is shown in the Density tab (0), not tab %1")
            .arg(parser.value(QStringLiteral("tab")));
    }
    for (const char* other : {"negativity", "ratio-split", "ratio-q"}) {
        if (parser.isSet(QString::fromLatin1(other))) {
            return QStringLiteral("--marginal: cannot be combined with --%1, which shows "
                                  "another view")
                .arg(QString::fromLatin1(other));
        }
    }
    return {};
}

/// --hue: the Density tab's per-class densities; the column is checked once the data are read.
QString hueProblem(const QCommandLineParser& parser)
{
    if (!parser.isSet(QStringLiteral("hue"))) {
        return {};
    }
    if (parser.isSet(QStringLiteral("tab")) && parser.value(QStringLiteral("tab")) != "0") {
        return QStringLiteral("--hue: it is shown in the Density tab (0), not tab %1")
            .arg(parser.value(QStringLiteral("tab")));
    }
    for (const char* other : {"negativity", "ratio-split", "ratio-q", "marginal"}) {
        if (parser.isSet(QString::fromLatin1(other))) {
            return QStringLiteral("--hue: cannot be combined with --%1")
                .arg(QString::fromLatin1(other));
        }
    }
    return {};
}

/// --hue-length-scale and --hue-norm: one of their words each.
QString hueOptionsProblem(const QCommandLineParser& parser)
{
    for (const auto& [option, first, second] : {std::tuple<const char*, const char*, const char*>{
                                                    "hue-length-scale", "pooled", "per-class"},
                                                {"hue-norm", "common", "each"}}) {
        const QString name = QString::fromLatin1(option);
        if (!parser.isSet(name)) {
            continue;
        }
        const QString value = parser.value(name);
        if (value != QLatin1String(first) && value != QLatin1String(second)) {
            return QStringLiteral("--%1: '%2' is not one of %3, %4")
                .arg(name, value, QLatin1String(first), QLatin1String(second));
        }
    }
    return {};
}

/// --overlay: the 1-D view's other curves: l*F (F > 0) or a density estimator's name.
QString overlayProblem(const QCommandLineParser& parser)
{
    if (!parser.isSet(QStringLiteral("overlay"))) {
        return {};
    }
    if (parser.isSet(QStringLiteral("tab")) && parser.value(QStringLiteral("tab")) != "0") {
        return QStringLiteral("--overlay: the curves are in the Density tab (0), not tab %1")
            .arg(parser.value(QStringLiteral("tab")));
    }
    QStringList known;
    for (const Estimator* e : EstimatorRegistry::instance().family(false)) {
        if (e->capabilities().kind != DensityKind::Score) {
            known << QString::fromStdString(e->name());
        }
    }
    // A detector's 1-D view shows a normality score: densities drawn on its axis read as
    // scores (issue 52, item 13).
    const std::string main = parser.value(QStringLiteral("estimator")).toStdString();
    if (const Estimator* e = EstimatorRegistry::instance().find(main);
        e && e->capabilities().kind == DensityKind::Score) {
        return QStringLiteral("--overlay: the 1-D view of %1 shows its normality score, not a "
                              "density: the overlays (densities) have no place on its axis")
            .arg(QString::fromStdString(main));
    }
    for (const QString& raw : parser.value(QStringLiteral("overlay")).split(QLatin1Char(','))) {
        const QString spec = raw.trimmed();
        bool number = false;
        const double f = spec.mid(2).toDouble(&number);
        const bool scaled =
            spec.startsWith(QLatin1String("l*")) && number && f > 0.0 && std::isfinite(f);
        if (!scaled && !known.contains(spec)) {
            return QStringLiteral("--overlay: '%1' is neither l*F (F > 0) nor one of %2")
                .arg(spec, known.join(QStringLiteral(", ")));
        }
    }
    for (const char* other : {"negativity", "ratio-split", "ratio-q", "marginal", "hue", "joint",
                              "pairplot", "roc-with"}) {
        if (parser.isSet(QString::fromLatin1(other))) {
            return QStringLiteral("--overlay: cannot be combined with --%1")
                .arg(QString::fromLatin1(other));
        }
    }
    return {};
}

/// --roc-with: estimators (density or detector) whose ROC curves join the Scores view's.
QString rocWithProblem(const QCommandLineParser& parser)
{
    if (!parser.isSet(QStringLiteral("roc-with"))) {
        return {};
    }
    if (parser.isSet(QStringLiteral("tab")) && parser.value(QStringLiteral("tab")) != "3") {
        return QStringLiteral("--roc-with: the curves are in the Scores tab (3), not tab %1")
            .arg(parser.value(QStringLiteral("tab")));
    }
    QStringList known;
    for (const Estimator* e : EstimatorRegistry::instance().family(false)) {
        known << QString::fromStdString(e->name());
    }
    const QStringList names =
        parser.value(QStringLiteral("roc-with")).split(QLatin1Char(','), Qt::KeepEmptyParts);
    for (const QString& n : names) {
        if (!known.contains(n.trimmed())) {
            return QStringLiteral("--roc-with: '%1' is not one of %2")
                .arg(n.trimmed(), known.join(QStringLiteral(", ")));
        }
    }
    for (const char* other : {"negativity", "ratio-split", "ratio-q", "marginal", "hue", "joint",
                              "pairplot", "overlay"}) {
        if (parser.isSet(QString::fromLatin1(other))) {
            return QStringLiteral("--roc-with: cannot be combined with --%1")
                .arg(QString::fromLatin1(other));
        }
    }
    return {};
}

/// --joint: the Density tab's map with its marginals; other views would hide it.
QString jointProblem(const QCommandLineParser& parser)
{
    if (!parser.isSet(QStringLiteral("joint"))) {
        return {};
    }
    if (parser.isSet(QStringLiteral("tab")) && parser.value(QStringLiteral("tab")) != "0") {
        return QStringLiteral("--joint: it is shown in the Density tab (0), not tab %1")
            .arg(parser.value(QStringLiteral("tab")));
    }
    for (const char* other : {"negativity", "ratio-split", "ratio-q", "marginal", "hue"}) {
        if (parser.isSet(QString::fromLatin1(other))) {
            return QStringLiteral("--joint: cannot be combined with --%1")
                .arg(QString::fromLatin1(other));
        }
    }
    return {};
}

/// --pairplot: the Density tab's pair plot; other views would hide it.
QString pairPlotProblem(const QCommandLineParser& parser)
{
    if (!parser.isSet(QStringLiteral("pairplot"))) {
        return {};
    }
    if (parser.isSet(QStringLiteral("tab")) && parser.value(QStringLiteral("tab")) != "0") {
        return QStringLiteral("--pairplot: it is shown in the Density tab (0), not tab %1")
            .arg(parser.value(QStringLiteral("tab")));
    }
    for (const char* other : {"negativity", "ratio-split", "ratio-q", "marginal", "hue", "joint"}) {
        if (parser.isSet(QString::fromLatin1(other))) {
            return QStringLiteral("--pairplot: cannot be combined with --%1")
                .arg(QString::fromLatin1(other));
        }
    }
    return {};
}

/// --color-scale: how the Density tab's map is coloured.
QString colorScaleProblem(const QCommandLineParser& parser)
{
    if (!parser.isSet(QStringLiteral("color-scale"))) {
        return {};
    }
    const QString v = parser.value(QStringLiteral("color-scale"));
    if (!mapScaleFromText(v)) {
        return QStringLiteral("--color-scale: '%1' is not one of log, linear, proportion").arg(v);
    }
    return {};
}

} // namespace

std::optional<sosrep::ui::MapScale> mapScaleFromText(const QString& text)
{
    using sosrep::ui::MapScale;
    if (text == QLatin1String("log")) {
        return MapScale::Log;
    }
    if (text == QLatin1String("linear")) {
        return MapScale::Linear;
    }
    if (text == QLatin1String("proportion")) {
        return MapScale::Proportion;
    }
    return std::nullopt;
}

namespace {

/// The studio's options: name, help, and the value's name (none for a switch).
struct StudioOption
{
    const char* name;
    const char* help;
    const char* value = nullptr;
};

const StudioOption kStudioOptions[] = {
    {"demo", "open with a built-in toy dataset and fit it"},
    {"screenshot",
     "after the fit (of FILE, else of the demo), save a screenshot of the window and exit", "FILE"},
    {"export-plot",
     "after the fit (of FILE, else of the demo), export the tab's plot (.png/.pdf/.svg) and "
     "exit",
     "FILE"},
    {"tab",
     "tab shown or exported (0-5: density, optimizer, Fisher divergence, scores, compare, "
     "ratio)",
     "N"},
    {"size", "window size for --screenshot, e.g. 1280x720", "WxH"},
    {"estimator", "estimator to fit (sosrep, kde, sos-mmd, ...)", "NAME"},
    {"purpose",
     "what the tuned length scale is for: density or anomaly (default auto: the density view "
     "tunes for the density, the Scores view for anomaly ranking)",
     "P"},
    {"scale",
     "per-column scaling of the data: minmax, zscore, robust, rank, none, or auto (default: "
     "the purpose's; minmax for the density view, and for the Scores view rank where most "
     "columns are a spike and a sparse tail)",
     "KIND"},
    {"bw-adjust",
     "multiply the length scale once it is set (tuned, a rule or a number) by A, as "
     "seaborn's bw_adjust (default 1)",
     "A"},
    {"compare", "second estimator of the compare view", "NAME"},
    {"contamination",
     "Scores view: flag this share of rows as outliers, 'auto' (0.1) or in (0, 0.5]; the "
     "threshold comes from rows the model did not fit, as with sosrep fit --contamination",
     "C"},
    {"ratio-split",
     "Ratio view: q = the rows with COLUMN = VALUE, then fit the ratio (screenshots)",
     "COLUMN=VALUE"},
    {"ratio-q", "Ratio view: q = the rows of FILE, then fit the ratio", "FILE"},
    {"ratio-estimator", "Ratio view: fire, ulsif, tikde or sosrep-ratio", "NAME"},
    {"negativity", "after the fit, run the negativity experiment (paper Fig. 3) with its "
                   "defaults and show it in the Optimizer view"},
    {"marginal",
     "after the fit, show the 1-D marginal density of COLUMN (a feature name) in the Density "
     "tab instead of the 2-D map (Gaussian SOSREP, KDE, kernel SoS)",
     "COLUMN"},
    {"overlay",
     "Density tab, one feature column: other curves on the same axis, comma-separated: l*F "
     "(this model at F times the fitted length scale) or a density estimator's name",
     "LIST"},
    {"roc-with",
     "Scores view: draw these estimators' ROC curves beside the model's (comma-separated, "
     "each fitted on the same rows for the anomaly purpose)",
     "LIST"},
    {"hue",
     "Density tab: one density per value of COLUMN (a label or group of 2-12 values), each "
     "fitted on its rows at the fitted length scale: contours over the map, curves for one "
     "column; the legend names each class COLUMN = value",
     "COLUMN"},
    {"hue-length-scale",
     "the hue's classes: pooled (default: every class at the fitted length scale, so they "
     "differ by their rows only) or per-class (each class's length scale tuned on its own "
     "rows, seaborn's default)",
     "RULE"},
    {"hue-norm",
     "the hue's curves for one column: common (default, seaborn's common_norm: each class "
     "times its share of the rows) or each (every class's curve has area 1)",
     "NORM"},
    {"joint", "Density tab: a joint plot, the plotted columns' 1-D marginal densities on the "
              "map's top and right edges (Gaussian SOSREP, KDE, kernel SoS)"},
    {"pairplot", "Density tab: the pair plot of every feature column (at most 9): each "
                 "pair's map below the diagonal, each column's marginal on it, drawn as they "
                 "are computed"},
    {"color-scale",
     "Density tab: colour the map by log density (log, the default), density on a linear "
     "scale (linear) or filled iso-proportion levels (proportion, seaborn's fill=True)",
     "SCALE"},
};

} // namespace

void addStudioOptions(QCommandLineParser& parser)
{
    parser.setApplicationDescription(QStringLiteral(
        "Explore SOSREP and KDE density estimates.\n\nWith --screenshot or --export-plot the app "
        "fits, writes and exits: 0 written, 2 bad option value, 3 data file unreadable, 4 fit "
        "failed, 5 output not written."));
    parser.addHelpOption();
    for (const StudioOption& o : kStudioOptions) {
        parser.addOption({QString::fromLatin1(o.name), QString::fromUtf8(o.help),
                          o.value ? QString::fromLatin1(o.value) : QString()});
    }
    parser.addPositionalArgument(QStringLiteral("file"), QStringLiteral("data file to open"));
}

QSize askedSize(const QCommandLineParser& parser)
{
    const QStringList size = parser.value(QStringLiteral("size")).split(QLatin1Char('x'));
    bool w = false, h = false;
    const QSize s = size.size() == 2 ? QSize(size[0].toInt(&w), size[1].toInt(&h)) : QSize();
    return w && h ? s : QSize();
}

QString checkStudioOptions(const QCommandLineParser& parser)
{
    for (const QString& problem :
         {estimatorProblem(parser, "estimator", false), estimatorProblem(parser, "compare", false),
          estimatorProblem(parser, "ratio-estimator", true), tabProblem(parser),
          sizeProblem(parser), splitProblem(parser), outputProblem(parser), purposeProblem(parser),
          scaleProblem(parser), bwAdjustProblem(parser), contaminationProblem(parser),
          marginalProblem(parser), colorScaleProblem(parser), hueProblem(parser),
          hueOptionsProblem(parser), rocWithProblem(parser), overlayProblem(parser),
          jointProblem(parser), pairPlotProblem(parser)}) {
        if (!problem.isEmpty()) {
            return problem;
        }
    }
    return {};
}

} // namespace sosrep::app
