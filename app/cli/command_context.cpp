// SPDX-License-Identifier: MIT
#include "app/cli/command_context.h"

#include "core/errors.h"
#include "core/util/text.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace sosrep::cli {

bool CommandContext::parse(QCommandLineParser& parser, const QStringList& args)
{
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    parser.addOption(QCommandLineOption(QStringLiteral("help"), QStringLiteral("show this help")));
    QStringList full = args;
    full.prepend(QStringLiteral("sosrep ") + m_command);
    if (!parser.parse(full)) {
        throw ParameterError(m_command.toStdString(), parser.errorText().toStdString());
    }
    if (!parser.positionalArguments().isEmpty()) {
        throw ParameterError(m_command.toStdString(),
                             "unexpected argument " +
                                 quoted(parser.positionalArguments().first().toStdString()));
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
    m_outputs.addInput(path, option);
}

QString CommandContext::plannedOutput(const Options& options, const char* option)
{
    const QString name = QString::fromLatin1(option + 2); // without "--"
    if (!options.has(name)) {
        return {};
    }
    const QString path = options.required(name);
    m_outputs.plan(path, option);
    return path;
}

void CommandContext::finish(QJsonObject summary)
{
    m_outputs.commit();
    QJsonArray warnings;
    for (const std::string& w : m_warnings) {
        warnings.append(QString::fromStdString(w));
    }
    summary[QStringLiteral("warnings")] = warnings;
    m_out << QJsonDocument(summary).toJson(QJsonDocument::Compact) << '\n';
}

} // namespace sosrep::cli
