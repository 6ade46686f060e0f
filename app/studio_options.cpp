// SPDX-License-Identifier: MIT
// sosrep-studio's option values checked up front (studio_options.h).
#include "app/studio_options.h"

#include "core/errors.h"
#include "core/estimators/registry.h"

#include <QFileInfo>
#include <QImageWriter>

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

} // namespace

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
          sizeProblem(parser), splitProblem(parser), outputProblem(parser),
          marginalProblem(parser)}) {
        if (!problem.isEmpty()) {
            return problem;
        }
    }
    return {};
}

} // namespace sosrep::app
