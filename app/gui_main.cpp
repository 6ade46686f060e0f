// SPDX-License-Identifier: MIT
#include "app/allocator_tuning.h"
#include "ui/controller/estimation_controller.h"
#include "ui/controller/negativity_job.h"
#include "ui/controller/ratio_controller.h"
#include "ui/main_window.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QTimer>

#include <cstdio>

int main(int argc, char* argv[])
{
    sosrep::app::tuneAllocator();
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("SOSREP Studio"));
    QApplication::setOrganizationName(QStringLiteral("SOSREP"));
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Explore SOSREP and KDE density estimates"));
    parser.addHelpOption();
    parser.addOption(
        {QStringLiteral("demo"), QStringLiteral("open with a built-in toy dataset and fit it")});
    parser.addOption(
        {QStringLiteral("screenshot"),
         QStringLiteral("after the demo fit, save a screenshot of the window and exit"),
         QStringLiteral("FILE")});
    parser.addOption(
        {QStringLiteral("export-plot"),
         QStringLiteral("after the demo fit, export the tab's plot (.png/.pdf/.svg) and exit"),
         QStringLiteral("FILE")});
    parser.addOption(
        {QStringLiteral("tab"),
         QStringLiteral(
             "tab shown or exported (0-5: density, optimizer, Fisher divergence, scores, compare, "
             "ratio)"),
         QStringLiteral("N")});
    parser.addOption({QStringLiteral("size"),
                      QStringLiteral("window size for --screenshot, e.g. 1280x720"),
                      QStringLiteral("WxH")});
    parser.addOption({QStringLiteral("estimator"),
                      QStringLiteral("estimator to fit (sosrep, kde, sos-mmd, ...)"),
                      QStringLiteral("NAME")});
    parser.addOption({QStringLiteral("compare"),
                      QStringLiteral("second estimator of the compare view"),
                      QStringLiteral("NAME")});
    parser.addOption({QStringLiteral("ratio-split"),
                      QStringLiteral("Ratio view: q = the rows with COLUMN = VALUE, then fit the "
                                     "ratio (screenshots)"),
                      QStringLiteral("COLUMN=VALUE")});
    parser.addOption({QStringLiteral("ratio-q"),
                      QStringLiteral("Ratio view: q = the rows of FILE, then fit the ratio"),
                      QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("ratio-estimator"),
                      QStringLiteral("Ratio view: fire, ulsif, tikde or sosrep-ratio"),
                      QStringLiteral("NAME")});
    parser.addOption({QStringLiteral("negativity"),
                      QStringLiteral("after the fit, run the negativity experiment (paper Fig. 3) "
                                     "with its defaults and show it in the Optimizer view")});
    parser.addPositionalArgument(QStringLiteral("file"), QStringLiteral("data file to open"));
    parser.process(app);

    sosrep::ui::MainWindow window;
    const QStringList size = parser.value(QStringLiteral("size")).split(QLatin1Char('x'));
    if (size.size() == 2 && size[0].toInt() > 0 && size[1].toInt() > 0) {
        window.resize(size[0].toInt(), size[1].toInt());
    }
    window.show();
    auto* controller = window.controller();
    if (parser.isSet(QStringLiteral("estimator"))) {
        controller->setEstimator(parser.value(QStringLiteral("estimator")).toStdString());
    }
    if (parser.isSet(QStringLiteral("compare"))) {
        controller->setCompareEstimator(parser.value(QStringLiteral("compare")).toStdString());
    }
    const QString shot = parser.value(QStringLiteral("screenshot"));
    const QString plotFile = parser.value(QStringLiteral("export-plot"));
    const bool batch = !shot.isEmpty() || !plotFile.isEmpty();
    if (!parser.positionalArguments().isEmpty()) {
        window.openFile(parser.positionalArguments().first());
        if (batch || parser.isSet(QStringLiteral("demo"))) {
            controller->fit();
        }
    } else if (parser.isSet(QStringLiteral("demo")) || batch) {
        controller->generateToy(sosrep::ToyKind::TwoMoons, 500, 0);
        controller->fit();
    }
    // The Ratio view's samples and fit, after the main fit (its data are loaded by then).
    sosrep::ui::RatioController* ratio = controller->ratio();
    sosrep::ui::RatioSource ratioSource;
    const QString split = parser.value(QStringLiteral("ratio-split"));
    if (split.contains(QLatin1Char('='))) {
        ratioSource.kind = sosrep::ui::RatioSource::Column;
        ratioSource.column = split.section(QLatin1Char('='), 0, 0);
        ratioSource.value = split.section(QLatin1Char('='), 1).toDouble();
    } else if (parser.isSet(QStringLiteral("ratio-q"))) {
        ratioSource.kind = sosrep::ui::RatioSource::File;
        ratioSource.path = parser.value(QStringLiteral("ratio-q"));
    }
    if (parser.isSet(QStringLiteral("ratio-estimator"))) {
        ratio->setEstimator(parser.value(QStringLiteral("ratio-estimator")).toStdString());
    }
    const bool ratioRun = ratioSource.kind != sosrep::ui::RatioSource::None;
    if (ratioRun) {
        QObject::connect(controller, &sosrep::ui::EstimationController::fitFinished, ratio, [=] {
            if (ratio->setSource(ratioSource)) {
                ratio->fit();
            }
        });
    }
    if (batch) {
        window.tabs()->setCurrentIndex(parser.value(QStringLiteral("tab")).toInt());
        auto finish = [&] {
            // Let the plots repaint before grabbing or exporting.
            QTimer::singleShot(500, &window, [&] {
                bool ok = true;
                if (!shot.isEmpty()) {
                    ok = window.grab().save(shot);
                    std::fprintf(ok ? stdout : stderr,
                                 ok ? "screenshot saved to %s\n" : "cannot write %s\n",
                                 qPrintable(shot));
                }
                if (ok && !plotFile.isEmpty()) {
                    ok = window.exportCurrentPlot(plotFile, {}).isEmpty();
                    std::fprintf(ok ? stdout : stderr,
                                 ok ? "plot exported to %s\n" : "cannot export %s\n",
                                 qPrintable(plotFile));
                }
                QApplication::exit(ok ? 0 : 3);
            });
        };
        if (parser.isSet(QStringLiteral("negativity"))) {
            QObject::connect(controller, &sosrep::ui::EstimationController::fitFinished, &window,
                             [&] { window.runNegativityExperiment({}); });
            QObject::connect(window.negativityJob(), &sosrep::ui::NegativityJob::finished, &window,
                             finish);
        } else if (ratioRun) {
            QObject::connect(ratio, &sosrep::ui::RatioController::resultChanged, &window, [=] {
                if (ratio->result()) {
                    finish();
                }
            });
            QObject::connect(ratio, &sosrep::ui::RatioController::errorOccurred, &window,
                             [](const QString& m) {
                                 std::fprintf(stderr, "sosrep-studio: %s\n", qPrintable(m));
                                 QApplication::exit(4);
                             });
        } else {
            QObject::connect(controller, &sosrep::ui::EstimationController::fitFinished, &window,
                             finish);
        }
        QObject::connect(controller, &sosrep::ui::EstimationController::errorOccurred, &window,
                         [](const QString& m) {
                             std::fprintf(stderr, "sosrep-studio: %s\n", qPrintable(m));
                             QApplication::exit(4);
                         });
    }
    // What the command line set up is the starting point, not an unsaved change.
    window.setWindowModified(false);
    return QApplication::exec();
}
