// SPDX-License-Identifier: MIT
// What every `sosrep` command shares: parsing, messages, planned outputs and their commit.
#pragma once

#include "app/cli/cli_options.h"
#include "core/io/output_set.h"
#include "core/report/chart.h"

#include <QCommandLineParser>
#include <QJsonObject>
#include <QStringList>
#include <QTextStream>

#include <functional>
#include <string>
#include <vector>

namespace sosrep::cli {

/// Draws a chart into a file's bytes ("png", "pdf", "svg"). The GUI build's `sosrep` registers
/// ui::renderChart; a build without Qt Widgets has none and refuses plot outputs up front.
using ChartRenderer = std::function<QByteArray(const Chart&, const QString& format)>;
void setChartRenderer(ChartRenderer renderer);
bool hasChartRenderer();

/// What every command shares: its name for messages, the streams, the warnings channel and the
/// all-or-nothing outputs (core/io/output_set.h).
class CommandContext
{
public:
    CommandContext(const QString& command, QTextStream& out, QTextStream& err);

    const QString& command() const { return m_command; }
    QTextStream& out() { return m_out; }
    /// Progress lines of long commands (stderr).
    QTextStream& err() { return m_err; }

    /// Parses `args` (with a --help option added); false when help was printed.
    bool parse(QCommandLineParser& parser, const QStringList& args);

    /// A soft problem: printed at once as "sosrep CMD: warning: ..." on stderr, and listed in
    /// the JSON summary's "warnings" array.
    void warn(const std::string& text);
    void warn(const std::vector<std::string>& texts);
    const std::vector<std::string>& warnings() const { return m_warnings; }

    /// Declares the input file of `option` (no output may overwrite it).
    void input(const QString& path, const char* option);
    /// Plans the output of `option` if it was given (checked now, before any computation) and
    /// returns its path, or an empty string.
    QString plannedOutput(const Options& options, const char* option);
    io::OutputSet& outputs() { return m_outputs; }
    /// The outputs' plan and stage with the command line's paths (core/io/output_set.h).
    void plan(const QString& path, const std::string& option)
    {
        m_outputs.plan(path.toStdString(), option);
    }
    void stage(const QString& path, const std::string& content)
    {
        m_outputs.stage(path.toStdString(), content);
    }
    void stage(const QString& path, const QByteArray& content)
    {
        m_outputs.stage(path.toStdString(), content.toStdString());
    }
    /// plannedOutput() for a figure: also refused at once when the extension is not .png, .pdf
    /// or .svg, or when this build cannot draw.
    QString plannedPlot(const Options& options, const char* option);
    /// Renders the chart and stages it under `path` (committed with the other outputs).
    void stagePlot(const QString& path, const Chart& chart);

    /// Makes every staged output visible (core/io/output_set.h).
    void commitOutputs()
    {
        m_outputs.commit();
        warn(m_outputs.notes());
    }
    /// Commits the outputs, then prints the summary (with "warnings") as the last stdout line.
    void finish(QJsonObject summary);

private:
    QString m_command;
    QTextStream& m_out;
    QTextStream& m_err;
    std::vector<std::string> m_warnings;
    io::OutputSet m_outputs;
};

} // namespace sosrep::cli
