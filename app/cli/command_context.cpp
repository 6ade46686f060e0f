// SPDX-License-Identifier: MIT
// What every `sosrep` command shares: parsing, messages, planned outputs and their commit.
#include "app/cli/command_context.h"

#include "core/errors.h"
#include "core/util/text.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

#include <csignal>
#include <memory>
#include <unistd.h>

namespace sosrep::cli {
namespace {
ChartRenderer& renderer()
{
    static ChartRenderer r;
    return r;
}
/// The fault-injection hook of the commit tests (tests/app/tst_commit_faults.cpp, issue 52):
/// SOSREP_FAULT_AT=K (or K:SIGNAL) sends SIGKILL (or SIGNAL) to this process after the K-th
/// step of the outputs' commit. Unset, nothing happens.
std::function<void(const std::string&)> faultHook()
{
    const QStringList spec = qEnvironmentVariable("SOSREP_FAULT_AT").split(QLatin1Char(':'));
    bool ok = false;
    const int at = spec.first().toInt(&ok);
    if (!ok || at <= 0) {
        return {};
    }
    const int signal = spec.size() > 1 ? spec.at(1).toInt() : SIGKILL;
    auto steps = std::make_shared<int>(0);
    return [at, signal, steps](const std::string&) {
        if (++*steps == at) {
            ::kill(::getpid(), signal);
        }
    };
}
} // namespace

CommandContext::CommandContext(const QString& command, QTextStream& out, QTextStream& err)
    : m_command(command), m_out(out), m_err(err)
{
    m_outputs.setStepHook(faultHook());
}

void setChartRenderer(ChartRenderer r)
{
    renderer() = std::move(r);
}

bool hasChartRenderer()
{
    return static_cast<bool>(renderer());
}

QString CommandContext::plannedPlot(const Options& options, const char* option)
{
    const QString path = plannedOutput(options, option);
    if (path.isEmpty()) {
        return path;
    }
    const QString ext = QFileInfo(path).suffix().toLower();
    if (ext != QLatin1String("png") && ext != QLatin1String("pdf") && ext != QLatin1String("svg")) {
        throw ParameterError(option,
                             path.toStdString() + ": unknown figure type (use .png, .pdf or .svg)");
    }
    if (!hasChartRenderer()) {
        throw ParameterError(option, "this sosrep was built without Qt Widgets and cannot draw "
                                     "(write the table and plot it elsewhere)");
    }
    return path;
}

void CommandContext::stagePlot(const QString& path, const Chart& chart)
{
    QByteArray bytes;
    try {
        bytes = renderer()(chart, QFileInfo(path).suffix());
    } catch (const std::runtime_error& e) {
        throw io::OutputError(path.toStdString() + ": " + e.what());
    }
    stage(path, bytes);
}

bool CommandContext::parse(QCommandLineParser& parser, const QStringList& args)
{
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    parser.addOption(QCommandLineOption(QStringLiteral("help"), QStringLiteral("show this help")));
    QStringList full = args;
    full.prepend(QStringLiteral("sosrep ") + m_command);
    // No option to name here (naming "--fit" for an unknown flag of fit misled): the
    // message itself says which word is wrong.
    const std::string help = " (see 'sosrep " + m_command.toStdString() + " --help')";
    if (!parser.parse(full)) {
        throw ParameterError("", parser.errorText().toStdString() + help);
    }
    if (!parser.positionalArguments().isEmpty()) {
        throw ParameterError(
            "", "unexpected argument " +
                    sosrep::quotedText(parser.positionalArguments().first().toStdString()) + help);
    }
    if (parser.isSet(QStringLiteral("help"))) {
        m_out << parser.helpText();
        return false;
    }
    return true;
}

void CommandContext::warn(const std::string& text)
{
    m_warnings.push_back(text);
    m_err << "sosrep " << m_command << ": warning: " << QString::fromStdString(oneLine(text))
          << '\n';
    m_err.flush();
}

void CommandContext::warn(const std::vector<std::string>& texts)
{
    for (const std::string& t : texts) {
        warn(t);
    }
}

void CommandContext::input(const QString& path, const char* option)
{
    m_outputs.addInput(path.toStdString(), option);
}

QString CommandContext::plannedOutput(const Options& options, const char* option)
{
    const QString name = QString::fromLatin1(option + 2); // without "--"
    if (!options.has(name)) {
        return {};
    }
    const QString path = options.required(name);
    plan(path, option);
    return path;
}

void CommandContext::finish(QJsonObject summary)
{
    m_outputs.commit();
    warn(m_outputs.notes());
    QJsonArray warnings;
    for (const std::string& w : m_warnings) {
        warnings.append(QString::fromStdString(w));
    }
    summary[QStringLiteral("warnings")] = warnings;
    m_out << QJsonDocument(summary).toJson(QJsonDocument::Compact) << '\n';
}

} // namespace sosrep::cli
