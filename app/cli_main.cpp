// SPDX-License-Identifier: MIT
// main() of `sosrep`: the command line, with Qt only for figures.
#include "app/allocator_tuning.h"
#include "app/cli/cli_runner.h"
#include "core/util/float_mode.h"

#include <QCoreApplication>

#include <cstdio>
#include <memory>

#ifdef SOSREP_WITH_CHARTS
#include "app/cli/command_context.h"
#include "ui/plots/chart_render.h"

#include <QApplication>

#include <cstring>
#endif

namespace {

QtMessageHandler qtDefaultHandler = nullptr;

/// Qt's own chatter (a missing XDG_RUNTIME_DIR when a figure needs a QApplication off screen)
/// would add lines to stderr, where each line is meant to be one of ours.
void quietQtMessages(QtMsgType type, const QMessageLogContext& context, const QString& message)
{
    if (type != QtFatalMsg && type != QtCriticalMsg &&
        message.startsWith(QLatin1String("QStandardPaths: "))) {
        return;
    }
    qtDefaultHandler(type, context, message);
}

} // namespace

int main(int argc, char* argv[])
{
    if (const std::string problem = sosrep::cli::argumentEncodingProblem(argc, argv);
        !problem.empty()) {
        std::fprintf(stderr, "sosrep: %s\n", problem.c_str());
        return sosrep::cli::ExitUsage;
    }
    qtDefaultHandler = qInstallMessageHandler(quietQtMessages);
    sosrep::app::tuneAllocator();
    // The whole process computes without subnormal numbers (issue 48); threads started later
    // inherit the mode.
    const sosrep::FlushSubnormalsScope flushed(
        sosrep::FlushSubnormalsScope::Threads::CallerAndPool);
    std::unique_ptr<QCoreApplication> app;
#ifdef SOSREP_WITH_CHARTS
    // Figures are drawn with QCustomPlot, which needs a QApplication; only commands that write
    // one pay for it, and without a display they draw off screen.
    bool plots = false;
    for (int i = 1; i < argc; ++i) {
        plots = plots || std::strcmp(argv[i], "--plot-out") == 0;
    }
    if (plots) {
        if (qEnvironmentVariableIsEmpty("DISPLAY") &&
            qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY") &&
            qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) {
            qputenv("QT_QPA_PLATFORM", "offscreen");
        }
        app = std::make_unique<QApplication>(argc, argv);
        sosrep::cli::setChartRenderer(&sosrep::ui::renderChart);
    }
#endif
    if (!app) {
        app = std::make_unique<QCoreApplication>(argc, argv);
    }
    QTextStream out(stdout);
    QTextStream err(stderr);
    return sosrep::cli::runCli(QCoreApplication::arguments().mid(1), out, err);
}
