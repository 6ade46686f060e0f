// SPDX-License-Identifier: MIT
// main() of `sosrep-studio`: the window, or the batch screenshot and export modes.
#include "app/allocator_tuning.h"
#include "app/studio_options.h"
#include "core/errors.h"
#include "core/util/float_mode.h"
#include "ui/controller/fit_controller.h"
#include "ui/controller/hue_controller.h"
#include "ui/controller/marginal_controller.h"
#include "ui/controller/negativity_job.h"
#include "ui/controller/other_roc_controller.h"
#include "ui/controller/overlay_controller.h"
#include "ui/controller/pair_plot_controller.h"
#include "ui/controller/ratio_controller.h"
#include "ui/controller/session.h"
#include "ui/controller/threshold_controller.h"
#include "ui/density_tab.h"
#include "ui/exporter.h"
#include "ui/main_window.h"
#include "ui/plots/compare_view.h"
#include "ui/scores_tab.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QSaveFile>
#include <QTimer>

#include <clocale>
#include <cstdio>
#include <functional>

namespace {

// Exit codes of the batch modes (--screenshot, --export-plot), those of `sosrep` where they
// mean the same.
constexpr int kExitUsage = 2;  // a bad option value
constexpr int kExitData = 3;   // the data file could not be read
constexpr int kExitFit = 4;    // the fit (or the ratio fit) failed
constexpr int kExitOutput = 5; // the screenshot or plot could not be written

using sosrep::ui::HueController;
using sosrep::ui::HueOptions;
using sosrep::ui::MainWindow;
using sosrep::ui::MarginalController;
using sosrep::ui::OtherRocController;
using sosrep::ui::OverlayController;
using sosrep::ui::PairPlotController;
using sosrep::ui::RatioController;
using sosrep::ui::RatioSource;
using sosrep::ui::Session;
using sosrep::ui::ThresholdController;

/// --estimator, --compare, --contamination, --scale and --purpose; an exit code when a value is
/// refused, else 0.
int applyModelOptions(const QCommandLineParser& parser, MainWindow& window)
{
    Session* controller = window.session();
    if (parser.isSet(QStringLiteral("estimator"))) {
        controller->setEstimator(parser.value(QStringLiteral("estimator")).toStdString());
    }
    if (parser.isSet(QStringLiteral("compare"))) {
        controller->setCompareEstimator(parser.value(QStringLiteral("compare")).toStdString());
    }
    if (parser.isSet(QStringLiteral("contamination"))) {
        try {
            window.controllers().thresholds->setContamination(sosrep::parseContamination(
                parser.value(QStringLiteral("contamination")).toStdString()));
        } catch (const sosrep::ParameterError& e) {
            std::fprintf(stderr, "sosrep-studio: --contamination: %s\n", e.message().c_str());
            return kExitUsage;
        }
    }
    if (parser.isSet(QStringLiteral("scale")) &&
        !controller->setOption("scale", parser.value(QStringLiteral("scale")).toStdString())) {
        std::fprintf(stderr, "sosrep-studio: --scale: '%s' is not a scaling\n",
                     qPrintable(parser.value(QStringLiteral("scale"))));
        return kExitUsage;
    }
    if (parser.isSet(QStringLiteral("bw-adjust")) &&
        !controller->setOption("bw_adjust",
                               parser.value(QStringLiteral("bw-adjust")).toStdString())) {
        std::fprintf(stderr, "sosrep-studio: --bw-adjust: '%s' is not a positive number\n",
                     qPrintable(parser.value(QStringLiteral("bw-adjust"))));
        return kExitUsage;
    }
    if (!parser.isSet(QStringLiteral("purpose"))) {
        return 0;
    }
    const QString purpose = parser.value(QStringLiteral("purpose"));
    if (!controller->settings().values.has("purpose")) {
        std::fprintf(stderr,
                     "sosrep-studio: --purpose: the %s estimator has no length scale to "
                     "tune\n",
                     controller->settings().estimator.c_str());
        return kExitUsage;
    }
    if (!controller->setOption("purpose", purpose.toStdString())) {
        std::fprintf(stderr,
                     "sosrep-studio: --purpose: '%s' is not one of auto, density, anomaly\n",
                     qPrintable(purpose));
        return kExitUsage;
    }
    return 0;
}

/// --ratio-split, --ratio-q and --ratio-estimator: the Ratio view's samples and fit, after the
/// main fit (its data are loaded by then). True when a ratio fit was set up.
bool setUpRatio(const QCommandLineParser& parser, Session* session, RatioController* ratio)
{
    RatioSource source;
    const QString split = parser.value(QStringLiteral("ratio-split"));
    if (split.contains(QLatin1Char('='))) {
        source.kind = RatioSource::Column;
        source.column = split.section(QLatin1Char('='), 0, 0);
        source.value = split.section(QLatin1Char('='), 1).toDouble();
    } else if (parser.isSet(QStringLiteral("ratio-q"))) {
        source.kind = RatioSource::File;
        source.path = parser.value(QStringLiteral("ratio-q"));
    }
    if (parser.isSet(QStringLiteral("ratio-estimator"))) {
        ratio->setEstimator(parser.value(QStringLiteral("ratio-estimator")).toStdString());
    }
    if (source.kind == RatioSource::None) {
        return false;
    }
    QObject::connect(session, &Session::fitFinished, ratio, [=] {
        if (ratio->setSource(source)) {
            ratio->fit();
        }
    });
    return true;
}

/// The batch modes (--screenshot, --export-plot): when the work the options started has ended,
/// write the files and leave the event loop with the exit code that says how it went.
class BatchRun
{
public:
    BatchRun(MainWindow& window, QSize asked, QString shot, QString plot,
             const QElapsedTimer& sinceStart)
        : m_window(window), m_asked(asked), m_shot(std::move(shot)), m_plot(std::move(plot)),
          m_sinceStart(sinceStart)
    {
    }

    /// Calls finish() after the signal that marks the end of the last job.
    void arm(const QCommandLineParser& parser, bool ratioRun)
    {
        Session* controller = m_window.session();
        m_window.views().tabs->setCurrentIndex(parser.value(QStringLiteral("tab")).toInt());
        if (parser.isSet(QStringLiteral("negativity"))) {
            QObject::connect(controller, &Session::fitFinished, &m_window,
                             [this] { m_window.runNegativityExperiment({}); });
            QObject::connect(m_window.controllers().negativity,
                             &sosrep::ui::NegativityJob::finished, &m_window, [this] { finish(); });
        } else if (ratioRun) {
            RatioController* ratio = m_window.controllers().ratios;
            QObject::connect(ratio, &RatioController::resultChanged, &m_window, [this, ratio] {
                if (ratio->result()) {
                    finish();
                }
            });
            QObject::connect(ratio, &RatioController::errorOccurred, &m_window, &failFit);
        } else if (parser.isSet(QStringLiteral("pairplot"))) {
            QObject::connect(controller, &Session::fitFinished, &m_window,
                             [this] { m_window.views().densityTab->showPairPlotView(); });
            QObject::connect(
                m_window.controllers().pairs, &PairPlotController::finished, &m_window,
                [this] { finish(); }, Qt::QueuedConnection);
        } else if (parser.isSet(QStringLiteral("joint"))) {
            waitForJointEdges();
        } else if (parser.isSet(QStringLiteral("overlay"))) {
            // The overlays are fitted after the fit: the export waits for them.
            QObject::connect(
                m_window.controllers().overlays, &OverlayController::ready, &m_window,
                [this] {
                    if (!m_window.controllers().overlays->overlays().empty()) {
                        finish();
                    }
                },
                Qt::QueuedConnection);
            QObject::connect(m_window.controllers().overlays, &OverlayController::failed, &m_window,
                             &failFit);
        } else if (parser.isSet(QStringLiteral("roc-with"))) {
            waitForOtherRocs(parser);
        } else if (parser.isSet(QStringLiteral("hue"))) {
            // The classes are fitted after the fit: the export waits for them.
            QObject::connect(
                m_window.controllers().hue, &HueController::ready, &m_window, [this] { finish(); },
                Qt::QueuedConnection);
            QObject::connect(m_window.controllers().hue, &HueController::failed, &m_window,
                             &failFit);
        } else if (parser.isSet(QStringLiteral("marginal"))) {
            const QString column = parser.value(QStringLiteral("marginal"));
            QObject::connect(controller, &Session::fitFinished, &m_window,
                             [this, column] { showMarginal(column); });
            QObject::connect(m_window.controllers().marginals, &MarginalController::ready,
                             &m_window, [this] { finish(); });
        } else {
            // Queued: the fit's late stages start after fitFinished's other receivers.
            QObject::connect(
                controller, &Session::fitFinished, &m_window, [this] { finish(); },
                Qt::QueuedConnection);
        }
        announceViews(parser.isSet(QStringLiteral("pairplot")));
        // Queued: an error raised before the event loop runs still ends it.
        QObject::connect(controller, &Session::errorOccurred, &m_window, &failFit,
                         Qt::QueuedConnection);
    }

private:
    /// --joint: the edges' marginals are computed after the fit: the export waits for both (or
    /// goes without them when the model has no closed form, which the edges say).
    void waitForJointEdges()
    {
        Session* controller = m_window.session();
        // One feature column has no joint plot (and never gets the margins it would wait
        // for): a refused option value, as seaborn's jointplot refuses one variable.
        const auto ready = [this] {
            if (m_window.session()->data().features().cols() < 2) {
                std::fprintf(stderr,
                             "sosrep-studio: --joint: needs two feature columns; the data "
                             "has %ld\n",
                             long(m_window.session()->data().features().cols()));
                QApplication::exit(kExitUsage);
                return;
            }
            const auto [top, right] = m_window.views().density->joint().points();
            if ((top > 0 && right > 0) ||
                !m_window.controllers().marginals->unavailable().isEmpty()) {
                finish();
            }
        };
        QObject::connect(m_window.controllers().marginals, &MarginalController::ready, &m_window,
                         ready, Qt::QueuedConnection);
        QObject::connect(controller, &Session::fitFinished, &m_window, ready, Qt::QueuedConnection);
    }

    /// --roc-with: the other estimators are fitted after the fit, the rows perhaps scored
    /// after it: the export waits for both.
    void waitForOtherRocs(const QCommandLineParser& parser)
    {
        Session* controller = m_window.session();
        if (!parser.isSet(QStringLiteral("tab"))) {
            m_window.views().tabs->setCurrentIndex(3);
        }
        const auto ready = [this] {
            const auto* r = m_window.session()->result();
            if (r && r->scoresReady() && !m_window.controllers().otherRocs->curves().empty()) {
                finish();
            }
        };
        QObject::connect(m_window.controllers().otherRocs, &OtherRocController::ready, &m_window,
                         ready, Qt::QueuedConnection);
        QObject::connect(controller, &Session::scoresReady, &m_window, ready, Qt::QueuedConnection);
        QObject::connect(m_window.controllers().otherRocs, &OtherRocController::failed, &m_window,
                         &failFit);
    }

    /// When each view had its data, from the process's start (sosrep-bench --speed reads
    /// these lines).
    void announceViews(bool pairPlot)
    {
        Session* controller = m_window.session();
        const auto say = [this](const char* what) {
            return [this, what] {
                std::printf("%s ready %.2f s after start\n", what,
                            double(m_sinceStart.nsecsElapsed()) * 1e-9);
                std::fflush(stdout);
            };
        };
        QObject::connect(controller, &Session::fitFinished, &m_window, say("density view"));
        QObject::connect(controller, &Session::scoresReady, &m_window, say("scores view"));
        QObject::connect(controller, &Session::comparisonReady, &m_window, say("compare view"));
        if (pairPlot) {
            QObject::connect(m_window.controllers().pairs, &PairPlotController::panelReady,
                             &m_window, [say](int index) {
                                 if (index == 0) {
                                     say("pair plot's first panel")();
                                 }
                             });
            QObject::connect(m_window.controllers().pairs, &PairPlotController::finished, &m_window,
                             say("pair plot"));
        }
    }

    /// --marginal: the column by name; an unknown column or a model without a closed-form
    /// marginal is a refused option value.
    void showMarginal(const QString& column)
    {
        Session* controller = m_window.session();
        const QStringList names = controller->data().featureNames();
        const int index = int(names.indexOf(column));
        const QString reason = m_window.controllers().marginals->unavailable();
        if (index < 0 || index >= controller->data().features().cols() || !reason.isEmpty()) {
            std::fprintf(
                stderr, "sosrep-studio: --marginal: %s\n",
                index < 0 ? qPrintable(QStringLiteral("'%1' is not a feature column (%2)")
                                           .arg(column, names.join(QStringLiteral(", "))))
                          : qPrintable(QStringLiteral("no closed-form marginal: %1").arg(reason)));
            QApplication::exit(kExitUsage);
            return;
        }
        m_window.views().densityTab->showMarginal(index);
        if (m_window.controllers().marginals->curve(index)) {
            finish();
        }
    }

    static void failFit(const QString& message)
    {
        std::fprintf(stderr, "sosrep-studio: %s\n", qPrintable(message));
        QApplication::exit(kExitFit);
    }

    void finish()
    {
        Session* controller = m_window.session();
        // Work the shown view started (a large fit's optimizer runs) ends first.
        if (controller->isBusy()) {
            auto* once = new QObject(&m_window);
            QObject::connect(controller, &Session::busyChanged, once, [this, once](bool busy) {
                if (!busy) {
                    once->deleteLater();
                    finish();
                }
            });
            return;
        }
        // A large fit's late stages follow it (the Scores view's, then the compare view's):
        // wait for the one the shown tab needs.
        QWidget* shown = m_window.views().tabs->currentWidget();
        const bool compareShown = shown == static_cast<QWidget*>(m_window.views().compare);
        const bool scoresShown = shown == static_cast<QWidget*>(m_window.views().scores);
        const auto waitFor = [this](auto* sender, auto signal) {
            auto* once = new QObject(&m_window);
            QObject::connect(
                sender, signal, once,
                [this, once] {
                    once->deleteLater();
                    finish();
                },
                Qt::QueuedConnection);
        };
        if (m_window.fits()->scoresPending() && (scoresShown || compareShown)) {
            waitFor(controller, &Session::scoresReady);
            return;
        }
        if (m_window.controllers().thresholds->pending() && scoresShown) {
            waitFor(m_window.controllers().thresholds, &ThresholdController::ready);
            return;
        }
        if (m_window.fits()->comparisonPending() && compareShown) {
            waitFor(controller, &Session::comparisonReady);
            return;
        }
        // Let the plots repaint before grabbing or exporting.
        QTimer::singleShot(500, &m_window, [this] { QApplication::exit(write()); });
    }

    int write()
    {
        if (m_asked.isValid() && m_window.size() != m_asked) {
            std::fprintf(stderr,
                         "sosrep-studio: warning: --size %dx%d is below the window's minimum: "
                         "the window is %dx%d\n",
                         m_asked.width(), m_asked.height(), m_window.width(), m_window.height());
        }
        bool ok = true;
        if (!m_shot.isEmpty()) {
            // Through a temporary file and a rename, as --export-plot: a full disk keeps the
            // old file instead of leaving a truncated PNG in its place.
            QSaveFile file(m_shot);
            const QByteArray suffix = QFileInfo(m_shot).suffix().toLower().toLatin1();
            ok = file.open(QIODevice::WriteOnly) &&
                 m_window.grab().save(&file, suffix.isEmpty() ? "png" : suffix.constData()) &&
                 file.commit();
            std::fprintf(ok ? stdout : stderr,
                         ok ? "screenshot saved to %s\n" : "cannot write %s\n", qPrintable(m_shot));
        }
        if (ok && !m_plot.isEmpty()) {
            ok = m_window.exporter()->exportCurrentPlot(m_plot, {}).isEmpty();
            std::fprintf(ok ? stdout : stderr, ok ? "plot exported to %s\n" : "cannot export %s\n",
                         qPrintable(m_plot));
        }
        return ok ? 0 : kExitOutput;
    }

    MainWindow& m_window;
    QSize m_asked;
    QString m_shot;
    QString m_plot;
    const QElapsedTimer& m_sinceStart;
};

} // namespace

/// The options that depend on the data read (a hue column, the ratio's split column, one
/// feature column for overlays, labels for ROC curves, three columns for a pair plot): checked
/// and applied once they are read; 0, or the exit code of a refused value.
int applyDataOptions(const QCommandLineParser& parser, MainWindow& window)
{
    Session* controller = window.session();
    // The hue's options first: its classes are fitted once, as asked.
    if (parser.isSet(QStringLiteral("hue-length-scale")) ||
        parser.isSet(QStringLiteral("hue-norm"))) {
        HueOptions options = window.controllers().hue->options();
        options.perClassLengthScale =
            parser.value(QStringLiteral("hue-length-scale")) == QLatin1String("per-class");
        options.commonNorm = parser.value(QStringLiteral("hue-norm")) != QLatin1String("each");
        window.controllers().hue->setOptions(options);
    }
    if (parser.isSet(QStringLiteral("hue"))) {
        // A column of a few values of these data (known only once they are read).
        const QString hue = parser.value(QStringLiteral("hue"));
        const QStringList candidates = window.controllers().hue->candidates();
        if (!candidates.contains(hue)) {
            std::fprintf(stderr,
                         "sosrep-studio: --hue: '%s' is not a column of 2 to %d values (these "
                         "data have: %s)\n",
                         qPrintable(hue), sosrep::ui::kMaxHueClasses,
                         candidates.isEmpty() ? "none" : qPrintable(candidates.join(", ")));
            return kExitUsage;
        }
        window.controllers().hue->setColumn(hue);
    }
    if (const QString split = parser.value(QStringLiteral("ratio-split"));
        split.contains(QLatin1Char('='))) {
        // Checked once the data are read, before the fit (it failed after it, exit 4).
        const QString column = split.section(QLatin1Char('='), 0, 0);
        QStringList names;
        for (const std::string& c : controller->data().rawData().columns) {
            names << QString::fromStdString(c);
        }
        if (!names.contains(column)) {
            std::fprintf(stderr,
                         "sosrep-studio: --ratio-split: '%s' is not a column of these data "
                         "(they have: %s)\n",
                         qPrintable(column), qPrintable(names.join(QStringLiteral(", "))));
            return kExitUsage;
        }
    }
    if (parser.isSet(QStringLiteral("overlay"))) {
        if (controller->data().features().cols() != 1) {
            std::fprintf(stderr,
                         "sosrep-studio: --overlay: overlays are drawn in the 1-D view of one "
                         "feature column (these data have %d)\n",
                         int(controller->data().features().cols()));
            return kExitUsage;
        }
        QStringList specs;
        for (const QString& spec :
             parser.value(QStringLiteral("overlay")).split(QLatin1Char(','))) {
            specs << spec.trimmed();
        }
        window.controllers().overlays->setSpecs(specs);
    }
    if (parser.isSet(QStringLiteral("roc-with"))) {
        const auto& labels = controller->data().labels();
        if (!labels || labels->sum() == 0 || labels->sum() == labels->size()) {
            std::fprintf(stderr, "sosrep-studio: --roc-with: ROC curves need a label column "
                                 "with both classes, and these data have none\n");
            return kExitUsage;
        }
        QStringList names;
        for (const QString& n : parser.value(QStringLiteral("roc-with")).split(QLatin1Char(','))) {
            names << n.trimmed();
        }
        window.controllers().otherRocs->setEstimators(names);
    }
    if (parser.isSet(QStringLiteral("pairplot")) && controller->data().features().cols() < 3) {
        std::fprintf(stderr,
                     "sosrep-studio: --pairplot: needs 3 or more feature columns (these "
                     "data have %d: the Density tab's map shows them)\n",
                     int(controller->data().features().cols()));
        return kExitUsage;
    }
    return 0;
}

int main(int argc, char* argv[])
{
    QElapsedTimer sinceStart;
    sinceStart.start();
    sosrep::app::tuneAllocator();
    // The whole process computes without subnormal numbers (issue 48); threads started later
    // inherit the mode.
    const sosrep::FlushSubnormalsScope flushed(
        sosrep::FlushSubnormalsScope::Threads::CallerAndPool);
    QApplication app(argc, argv);
    // Qt set LC_NUMERIC from the session (a German desktop reads "0,5"); the core's messages
    // and any C library parsing must stay in the C locale. Qt's own QLocale is unaffected.
    std::setlocale(LC_NUMERIC, "C");
    QApplication::setApplicationName(QStringLiteral("SOSREP Studio"));
    QApplication::setOrganizationName(QStringLiteral("SOSREP"));
    // Matches resources/sosrep-studio.desktop (the window's icon and name on Wayland docks).
    QGuiApplication::setDesktopFileName(QStringLiteral("sosrep-studio"));
    QCommandLineParser parser;
    sosrep::app::addStudioOptions(parser);
    parser.process(app);
    if (const QString problem = sosrep::app::checkStudioOptions(parser); !problem.isEmpty()) {
        std::fprintf(stderr, "sosrep-studio: %s\n", qPrintable(problem));
        return kExitUsage;
    }

    MainWindow window;
    const QSize asked = sosrep::app::askedSize(parser);
    if (asked.isValid()) {
        window.resize(asked);
    }
    window.show();
    Session* controller = window.session();
    if (const int refused = applyModelOptions(parser, window)) {
        return refused;
    }
    const QString shot = parser.value(QStringLiteral("screenshot"));
    const QString plotFile = parser.value(QStringLiteral("export-plot"));
    const bool batch = !shot.isEmpty() || !plotFile.isEmpty();
    const bool fitNow = batch || parser.isSet(QStringLiteral("demo"));
    window.setBatch(batch);
    if (const auto scale = sosrep::app::mapScaleFromText(parser.value("color-scale"))) {
        window.views().densityTab->setMapScale(*scale);
    }
    window.views().densityTab->setJoint(parser.isSet(QStringLiteral("joint")));
    if (!parser.positionalArguments().isEmpty()) {
        if (!window.openFile(parser.positionalArguments().first()) && batch) {
            // Nothing to wait for: say why and stop (the command line's data exit code).
            std::fprintf(stderr, "sosrep-studio: %s\n", qPrintable(window.lastError()));
            return kExitData;
        }
    } else if (fitNow) {
        controller->generateToy(sosrep::ToyKind::TwoMoons, 500, 0);
    }
    if (const int refused = applyDataOptions(parser, window)) {
        return refused;
    }
    const bool ratioRun = setUpRatio(parser, controller, window.controllers().ratios);
    BatchRun run(window, asked, shot, plotFile, sinceStart); // lives as long as the event loop
    if (batch) {
        run.arm(parser, ratioRun);
    }
    if (fitNow) {
        window.fits()->fit();
    }
    // What the command line set up is the starting point, not an unsaved change.
    window.setWindowModified(false);
    return QApplication::exec();
}
