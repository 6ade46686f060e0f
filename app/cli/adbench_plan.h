// SPDX-License-Identifier: MIT
// `sosrep adbench`: its options, the plan they make (checked before any data is read) and the
// record of a run's options that --resume compares.
#pragma once

#include "app/cli/command_context.h"
#include "core/estimators/fit_settings.h"

#include <QByteArray>
#include <QCommandLineParser>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <vector>

namespace sosrep::cli {

/// One method of the run: a label (as given) and its settings.
struct Method
{
    QString label;
    FitSettings settings;
    bool ownPurpose = false; // its spec says purpose=...
};

/// One .npz file of the run and the family it belongs to (the name of its folder).
struct DataFile
{
    QString path;
    QString name; // the file name: the dataset's identity in tables
    QString family;
};

/// How a data set becomes its two parts (--protocol).
enum class DataProtocol
{
    Ours,    // seeded 10 000-row subsample and stratified 70/30 split with this project's RNG
    Adbench, // ADBench's generator, draw for draw: small sets redrawn to 1000 rows first
    Paper    // the SOSREP authors' loader: ADBench's generator without that redraw
};

/// Everything the options decide, checked before any data is read.
struct AdbenchPlan
{
    QString curvesPath, tablePath, jsonPath, plotPath, partialPath;
    QString exportDir, externalDir;
    QString summarizePath; // --summarize: a finished table to summarize, with no fit
    std::vector<DataFile> files;
    std::vector<uint64_t> seeds;
    std::vector<Method> methods;
    QStringList builtIn; // the --estimators labels
    QStringList lodo;
    QString reference;
    double duplicate = 1.0;
    DataProtocol protocol = DataProtocol::Ours;
    bool hindsight = false;
    bool resume = false;
};

/// The flags of `sosrep adbench`.
void addAdbenchOptions(QCommandLineParser& p);

/// Reads and checks every option: the datasets, seeds and methods, the outputs (planned, so
/// nothing is computed before a bad path is refused), --lodo, --reference and the external
/// score files. Throws ParameterError naming the option.
AdbenchPlan planAdbench(const Options& o, CommandContext& ctx);

/// What decides a run's numbers besides its dataset and seed, one "name=value" line each: the
/// protocol, the anomaly duplication and every option of every method. Kept beside the partial
/// table, so that --resume never mixes rows of two protocols.
QByteArray runOptionsText(const AdbenchPlan& plan);

/// The file beside the partial table that records its run's options.
QString optionsPathOf(const QString& partialPath);

/// --resume: throws ParameterError("--resume") unless the partial table's recorded options are
/// this run's, naming the first that differs.
void checkResumedOptions(const AdbenchPlan& plan);

} // namespace sosrep::cli
