// SPDX-License-Identifier: MIT
// The options record `sosrep adbench` keeps beside its partial table, made for a test's run.
#pragma once

#include "app/cli/adbench_plan.h"

#include <QByteArray>
#include <QCommandLineParser>
#include <QString>
#include <QStringList>
#include <QTextStream>

/// What a run of `sosrep adbench ARGS` records of its options (app/cli/adbench_plan.h), so that
/// a test can leave a partial table as that run would have left it.
inline QByteArray adbenchOptionsRecord(const QStringList& args)
{
    QString outText, errText;
    QTextStream out(&outText), err(&errText);
    sosrep::cli::CommandContext ctx(QStringLiteral("adbench"), out, err);
    QCommandLineParser parser;
    sosrep::cli::addAdbenchOptions(parser);
    ctx.parse(parser, args);
    const sosrep::cli::Options options(parser);
    const sosrep::cli::AdbenchPlan plan = sosrep::cli::planAdbench(options, ctx);
    return sosrep::cli::runOptionsText(plan);
}
