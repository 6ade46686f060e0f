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
#include <functional>

namespace {

// Exit codes of the batch modes (--screenshot, --export-plot), those of `sosrep` where they
// mean the same.
constexpr int kExitUsage = 2;  // a bad option value
constexpr int kExitData = 3;   // the data file could not be read
constexpr int kExitFit = 4;    // the fit (or the ratio fit) failed
constexpr int kExitOutput = 5; // the screenshot or plot could not be written

} // namespace

int main(int argc, char* argv[])
{
    sosrep::app::tuneAllocator();
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("SOSREP Studio"));
    QApplication::setOrganizationName(QStringLiteral("SOSREP"));
    // Matches resources/sosrep-studio.desktop (the window's icon and name on Wayland docks).
    QGuiApplication::setDesktopFileName(QStringLiteral("sosrep-studio"));
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Explore SOSREP and KDE density estimates.\n\nWith --screenshot or --export-plot the app "
        "fits, writes and exits: 0 written, 2 bad option value, 3 data file unreadable, 4 fit "
        "failed, 5 output not written."));
    parser.addHelpOption();
    parser.addOption(
        {QStringLiteral("demo"), QStringLiteral("open with a built-in toy dataset and fit it")});
    parser.addOption(
        {QStringLiteral("screenshot"),
         QStringLiteral(
             "after the fit (of FILE, else of the demo), save a screenshot of the window and exit"),
         QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("export-plot"),
                      QStringLiteral("after the fit (of FILE, else of the demo), export the tab's "
                                     "plot (.png/.pdf/.svg) and exit"),
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
    parser.addOption({QStringLiteral("purpose"),
                      QStringLiteral("what the tuned length scale is for: density or anomaly "
                                     "(default auto: the density view tunes for the density, the "
                                     "Scores view for anomaly ranking)"),
                      QStringLiteral("P")});
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
    const QSize asked = size.size() == 2 ? QSize(size[0].toInt(), size[1].toInt()) : QSize();
    if (parser.isSet(QStringLiteral("size")) && (asked.width() <= 0 || asked.height() <= 0)) {
        std::fprintf(stderr, "sosrep-studio: --size: '%s' is not WIDTHxHEIGHT, e.g. 1280x720\n",
                     qPrintable(parser.value(QStringLiteral("size"))));
        return kExitUsage;
    }
    if (asked.isValid()) {
        window.resize(asked);
    }
    window.show();
    auto* controller = window.controller();
    if (parser.isSet(QStringLiteral("estimator"))) {
        controller->setEstimator(parser.value(QStringLiteral("estimator")).toStdString());
    }
    if (parser.isSet(QStringLiteral("compare"))) {
        controller->setCompareEstimator(parser.value(QStringLiteral("compare")).toStdString());
    }
    if (parser.isSet(QStringLiteral("purpose"))) {
        const QString purpose = parser.value(QStringLiteral("purpose"));
        if (!controller->settings().values.has("purpose")) {
            std::fprintf(stderr,
                         "sosrep-studio: --purpose: the %s estimator has no length scale "
                         "to tune\n",
                         controller->settings().estimator.c_str());
            return kExitUsage;
        }
        if (!controller->setOption("purpose", purpose.toStdString())) {
            std::fprintf(stderr,
                         "sosrep-studio: --purpose: '%s' is not one of auto, density, anomaly\n",
                         qPrintable(purpose));
            return kExitUsage;
        }
    }
    const QString shot = parser.value(QStringLiteral("screenshot"));
    const QString plotFile = parser.value(QStringLiteral("export-plot"));
    const bool batch = !shot.isEmpty() || !plotFile.isEmpty();
    const bool fitNow = batch || parser.isSet(QStringLiteral("demo"));
    if (!parser.positionalArguments().isEmpty()) {
        if (!window.openFile(parser.positionalArguments().first()) && batch) {
            // Nothing to wait for: say why and stop (the command line's data exit code).
            std::fprintf(stderr, "sosrep-studio: %s\n", qPrintable(window.lastError()));
            return kExitData;
        }
    } else if (fitNow) {
        controller->generateToy(sosrep::ToyKind::TwoMoons, 500, 0);
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
    std::function<void()> finish; // lives as long as the event loop: its lambdas call it
    if (batch) {
        window.tabs()->setCurrentIndex(parser.value(QStringLiteral("tab")).toInt());
        finish = [&] {
            // Work the shown view started (a large fit's optimizer runs) ends first.
            if (controller->isBusy()) {
                auto* once = new QObject(&window);
                QObject::connect(controller, &sosrep::ui::EstimationController::busyChanged, once,
                                 [once, &finish](bool busy) {
                                     if (!busy) {
                                         once->deleteLater();
                                         finish();
                                     }
                                 });
                return;
            }
            // Let the plots repaint before grabbing or exporting.
            QTimer::singleShot(500, &window, [&] {
                bool ok = true;
                if (asked.isValid() && window.size() != asked) {
                    std::fprintf(stderr,
                                 "sosrep-studio: warning: --size %dx%d is below the window's "
                                 "minimum: the window is %dx%d\n",
                                 asked.width(), asked.height(), window.width(), window.height());
                }
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
                QApplication::exit(ok ? 0 : kExitOutput);
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
                                 QApplication::exit(kExitFit);
                             });
        } else {
            QObject::connect(controller, &sosrep::ui::EstimationController::fitFinished, &window,
                             finish);
        }
        // Queued: an error raised before the event loop runs still ends it.
        QObject::connect(
            controller, &sosrep::ui::EstimationController::errorOccurred, &window,
            [](const QString& m) {
                std::fprintf(stderr, "sosrep-studio: %s\n", qPrintable(m));
                QApplication::exit(kExitFit);
            },
            Qt::QueuedConnection);
    }
    if (fitNow) {
        controller->fit();
    }
    // What the command line set up is the starting point, not an unsaved change.
    window.setWindowModified(false);
    return QApplication::exec();
}
