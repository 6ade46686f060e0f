// SPDX-License-Identifier: MIT
// A property test over sosrep-studio's argument vectors: 4000 seeded vectors, each option
// present or not with a value from a pool of good and hostile ones. checkStudioOptions must
// refuse a vector exactly when an oracle written from the options' documented domains says one
// value is bad, name that option first in its message, and never throw; the binary itself is
// run on bad values in tst_studio_batch.
#include "app/studio_options.h"
#include "core/estimators/fit_settings.h"
#include "core/estimators/registry.h"

#include <QtTest>

#include <random>

namespace {

/// One option's pool of values, and whether each is good on its own.
struct Pool
{
    const char* option;
    std::vector<std::pair<QString, bool>> values;
};

std::vector<Pool> pools()
{
    QStringList densities, ratios;
    for (const sosrep::Estimator* e : sosrep::EstimatorRegistry::instance().family(false)) {
        densities << QString::fromStdString(e->name());
    }
    for (const sosrep::Estimator* e : sosrep::EstimatorRegistry::instance().family(true)) {
        ratios << QString::fromStdString(e->name());
    }
    auto names = [&](const QStringList& good) {
        std::vector<std::pair<QString, bool>> v;
        for (const QString& n : densities + ratios) {
            v.emplace_back(n, good.contains(n));
        }
        v.emplace_back(QStringLiteral("bogus"), false);
        v.emplace_back(QString(), false);
        return v;
    };
    return {
        {"estimator", names(densities)},
        {"compare", names(densities)},
        {"ratio-estimator", names(ratios)},
        {"tab",
         {{"0", true},
          {"3", true},
          {"5", true},
          {"6", false},
          {"-1", false},
          {"x", false},
          {"", false},
          {"2.5", false},
          {"99999999999", false}}},
        {"size",
         {{"1280x720", true},
          {"8192x8192", true},
          {"8193x10", false},
          {"0x5", false},
          {"100000x100000", false},
          {"x", false},
          {"12x", false},
          {"-5x5", false},
          {"axb", false}}},
        {"ratio-split",
         {{"label=1", true},
          {"x1=0.5", true},
          {"label=abc", false},
          {"label", false},
          {"=1", false},
          {"a=1=2", false}}},
        // Issue 52: an output's folder was checked after the fit.
        {"export-plot",
         {{"p.png", true},
          {"p.PDF", true},
          {"p.svg", true},
          {"p.bmp", false},
          {"p", false},
          {"/nonexistent-folder/p.png", false}}},
        {"screenshot",
         {{"s.png", true},
          {"p.png", true}, // --export-plot's file when that is p.png
          {"s.xyz", false},
          {"s", false},
          {"/nonexistent-folder/s.png", false}}},
        {"purpose",
         {{"auto", true}, {"density", true}, {"anomaly", true}, {"bogus", false}, {"", false}}},
        {"scale",
         {{"auto", true},
          {"minmax", true},
          {"rank", true},
          {"robust", true},
          {"none", true},
          {"quantile", true},
          {"quartile", false},
          {"", false}}},
        {"bw-adjust",
         {{"1.5", true},
          {"0.25", true},
          {"1e-3", true},
          {"0", false},
          {"-1", false},
          {"nan", false},
          {"inf", false},
          {"x", false},
          {"", false}}},
        {"contamination",
         {{"auto", true},
          {"0.1", true},
          {"0.5", true},
          {"0", false},
          {"0.7", false},
          {"x", false},
          {"-1", false},
          {"nan", false}}},
        {"marginal", {{"x1", true}, {"", true}}},
        {"overlay",
         {{"l*0.5", true},
          {"l*2,kde", true},
          {"sos-mmd", true},
          {"l*0", false},
          {"l*-1", false},
          {"l*x", false},
          {"iforest", false},
          {"", false}}},
        {"roc-with",
         {{"kde", true},
          {"kde,iforest,ecod", true},
          {"lof", true},
          {"bogus", false},
          {"fire", false},
          {"kde,", false},
          {"", false}}},
        {"hue-length-scale", {{"pooled", true}, {"per-class", true}, {"each", false}, {"", false}}},
        {"hue-norm", {{"common", true}, {"each", true}, {"per-class", false}, {"", false}}},
        {"negativity", {{"", true}}},
        {"ratio-q", {{"q.csv", true}}},
        {"demo", {{"", true}}},
    };
}

bool isFlag(const char* option)
{
    return QByteArray(option) == "negativity" || QByteArray(option) == "demo";
}

} // namespace

class TstStudioOptions : public QObject
{
    Q_OBJECT

private slots:
    void refusesExactlyTheBadVectorsAndNamesTheOption()
    {
        const std::vector<Pool> all = pools();
        std::mt19937_64 rng(20261127);
        int refused = 0;
        for (int run = 0; run < 4000; ++run) {
            QStringList args{QStringLiteral("sosrep-studio")};
            std::map<QString, QString> given;
            QStringList bad; // options whose value is bad on its own
            for (const Pool& p : all) {
                if (rng() % 4 != 0) {
                    continue;
                }
                const auto& [value, good] = p.values[rng() % p.values.size()];
                const QString name = QString::fromLatin1(p.option);
                args << QStringLiteral("--") + name;
                if (!isFlag(p.option)) {
                    args << value;
                }
                given[name] = value;
                if (!good) {
                    bad << name;
                }
            }
            // The combinations: a purpose needs an estimator with a length scale; the 1-D
            // marginal is shown in the Density tab, by no other run.
            const QString estimator =
                given.count("estimator") ? given["estimator"] : QStringLiteral("sosrep");
            if (given.count("purpose") && !bad.contains("estimator") &&
                !sosrep::FitSettings::defaults(estimator.toStdString()).values.has("purpose")) {
                bad << QStringLiteral("purpose");
            }
            if (given.count("bw-adjust") && !bad.contains("bw-adjust") &&
                !bad.contains("estimator") &&
                !sosrep::FitSettings::defaults(estimator.toStdString()).values.has("bw_adjust")) {
                bad << QStringLiteral("bw-adjust");
            }
            if (given.count("roc-with") && !bad.contains("roc-with") &&
                ((given.count("tab") && given["tab"] != "3") || given.count("negativity") ||
                 given.count("ratio-split") || given.count("ratio-q") || given.count("marginal"))) {
                bad << QStringLiteral("roc-with");
                if (given.count("marginal")) {
                    bad << QStringLiteral("marginal"); // either is named: they exclude each other
                }
            }
            // Views that exclude each other: either may be named, whatever their values.
            for (const auto& [a, b] : {std::pair<const char*, const char*>{"overlay", "roc-with"},
                                       {"overlay", "marginal"},
                                       {"roc-with", "marginal"}}) {
                if (given.count(a) && given.count(b)) {
                    bad << QString::fromLatin1(a) << QString::fromLatin1(b);
                }
            }
            if (given.count("overlay") && !bad.contains("overlay") &&
                ((given.count("tab") && given["tab"] != "0") || given.count("negativity") ||
                 given.count("ratio-split") || given.count("ratio-q") || given.count("marginal") ||
                 given.count("roc-with"))) {
                bad << QStringLiteral("overlay");
                for (const char* other : {"marginal", "roc-with"}) {
                    if (given.count(other)) {
                        bad << QString::fromLatin1(other); // they exclude each other
                    }
                }
            }
            // Issue 52: overlays are densities, and a detector's 1-D view a normality score.
            if (given.count("overlay") && !bad.contains("overlay") && !bad.contains("estimator")) {
                const auto* e = sosrep::EstimatorRegistry::instance().find(estimator.toStdString());
                if (e && e->capabilities().kind == sosrep::DensityKind::Score) {
                    bad << QStringLiteral("overlay");
                }
            }
            // Two outputs in one file: either may be named.
            if (given.count("export-plot") && given.count("screenshot") &&
                given["export-plot"] == given["screenshot"] && !bad.contains("export-plot") &&
                !bad.contains("screenshot")) {
                bad << QStringLiteral("export-plot") << QStringLiteral("screenshot");
            }
            if (given.count("marginal") &&
                ((given.count("tab") && given["tab"] != "0") || given.count("negativity") ||
                 given.count("ratio-split") || given.count("ratio-q"))) {
                bad << QStringLiteral("marginal");
            }
            QCommandLineParser parser;
            sosrep::app::addStudioOptions(parser);
            QVERIFY2(parser.parse(args), qPrintable(args.join(' ')));
            QString problem;
            try {
                problem = sosrep::app::checkStudioOptions(parser);
            } catch (const std::exception& e) {
                QFAIL(qPrintable(args.join(' ') + QStringLiteral(": threw ") + e.what()));
            }
            QVERIFY2(problem.isEmpty() == bad.isEmpty(),
                     qPrintable(args.join(' ') + QStringLiteral(" -> '") + problem +
                                QStringLiteral("', bad: ") + bad.join(',')));
            if (!problem.isEmpty()) {
                ++refused;
                const QString named = problem.section(QLatin1Char(':'), 0, 0).mid(2);
                QVERIFY2(bad.contains(named) || ((named == "purpose" || named == "bw-adjust") &&
                                                 bad.contains("estimator")),
                         qPrintable(args.join(' ') + QStringLiteral(" -> ") + problem));
            }
        }
        QVERIFY2(refused > 1000 && refused < 3900, qPrintable(QString::number(refused)));
    }
};

QTEST_MAIN(TstStudioOptions)
#include "tst_studio_options.moc"
