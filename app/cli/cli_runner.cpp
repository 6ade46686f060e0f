// SPDX-License-Identifier: MIT
#include "app/cli/cli_runner.h"

#include "app/cli/commands.h"
#include "app/cli/fit_options.h"
#include "core/errors.h"
#include "core/util/text.h"
#include "ui/io/output_set.h"

#include <clocale>
#include <new>

namespace sosrep::cli {
namespace {

const char* kUsage =
    "usage: sosrep <command> [options]\n"
    "commands:\n"
    "  generate  write a seeded 2-D toy dataset (gmm, moons, rings, square, cosine, blocks)\n"
    "  fit       fit an estimator (SOSREP, KDE, kernel SoS; l tuned by Fisher divergence), score, "
    "save\n"
    "  score     score rows with a saved model\n"
    "  split     subsample and split a dataset (the ADBench protocol's split step)\n"
    "  mmd       MMD between data and saved models, or between two data files\n"
    "  ratio     density ratio q/p (FIRE, uLSIF, TIKDE, SOSREP plug-in) and importance weights\n"
    "  adbench   evaluate on a folder of ADBench .npz files (ADBench protocol)\n"
    "  experiment negativity   the paper's natural vs standard gradient experiment (Fig. 3)\n"
    "run 'sosrep <command> --help' for the options of a command";

using Command = int (*)(const QStringList&, CommandContext&);

Command commandNamed(const QString& name)
{
    if (name == QLatin1String("generate")) {
        return &commandGenerate;
    }
    if (name == QLatin1String("fit")) {
        return &commandFit;
    }
    if (name == QLatin1String("score")) {
        return &commandScore;
    }
    if (name == QLatin1String("split")) {
        return &commandSplit;
    }
    if (name == QLatin1String("mmd")) {
        return &commandMmd;
    }
    if (name == QLatin1String("ratio")) {
        return &commandRatio;
    }
    if (name == QLatin1String("adbench")) {
        return &commandAdbench;
    }
    if (name == QLatin1String("experiment")) {
        return &commandExperiment;
    }
    return nullptr;
}

} // namespace

int runCli(const QStringList& args, QTextStream& out, QTextStream& err)
{
    // QCoreApplication set every category from the environment (LANG=de_DE.UTF-8 and the
    // like); numbers in files, flags and messages are C-locale whatever the user's session.
    std::setlocale(LC_NUMERIC, "C");
    if (args.isEmpty() || args.first() == QLatin1String("--help") ||
        args.first() == QLatin1String("-h")) {
        (args.isEmpty() ? err : out) << kUsage << '\n';
        return args.isEmpty() ? ExitUsage : ExitOk;
    }
    const QString name = args.first();
    const Command command = commandNamed(name);
    if (!command) {
        err << "sosrep: unknown command " << QString::fromStdString(quoted(name.toStdString()))
            << " (use generate, fit, score, split, mmd, ratio, adbench or experiment)\n";
        return ExitUsage;
    }
    // One line per failure, whatever the exception held: control bytes escaped, length capped.
    auto fail = [&](int code, const std::string& what) {
        err << "sosrep " << name << ": " << QString::fromStdString(oneLine(what)) << '\n';
        return code;
    };
    try {
        CommandContext ctx(name, out, err);
        return command(args.mid(1), ctx);
    } catch (const ParameterError& e) {
        return fail(ExitUsage, e.parameter().empty()
                                   ? e.message()
                                   : cliSpelling(e.parameter()) + ": " + e.message());
    } catch (const DataError& e) {
        return fail(ExitData, e.what());
    } catch (const NumericalError& e) {
        return fail(ExitNumerical, std::string("numerical failure: ") + e.what());
    } catch (const io::OutputError& e) {
        return fail(ExitOutput, std::string("cannot write output: ") + e.what());
    } catch (const std::bad_alloc&) {
        return fail(ExitMemory, "out of memory (try fewer rows, e.g. sosrep split --subsample)");
    } catch (const std::exception& e) {
        return fail(ExitInternal, std::string("internal error: ") + e.what());
    }
}

} // namespace sosrep::cli
