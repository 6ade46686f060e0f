// SPDX-License-Identifier: MIT
#include "app/cli/cli_runner.h"

#include <QCoreApplication>

int main(int argc, char* argv[])
{
    QCoreApplication app(argc, argv);
    QTextStream out(stdout);
    QTextStream err(stderr);
    return sosrep::cli::runCli(app.arguments().mid(1), out, err);
}
