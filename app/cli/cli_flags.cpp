// SPDX-License-Identifier: MIT
// The table of the commands' own flags (files, data, protocol) and how they are added.
#include "app/cli/cli_flags.h"

#include <stdexcept>

namespace sosrep::cli {
namespace {

struct CommandFlag
{
    const char* name;
    const char* value; // nullptr: a switch without a value
    const char* help;
};

// Every flag of the commands, once.
const CommandFlag kFlags[] = {
    {"train", "FILE", "training data (CSV/TSV with header, or .npz)"},
    {"test", "FILE", "rows to score, and the validation rows of automatic l"},
    {"data", "FILE", "input data (CSV/TSV with header, or .npz)"},
    {"model", "FILE", "model file from 'fit --model-out'"},
    {"columns", "LIST", "feature columns, comma-separated"},
    {"label-column", "NAME", "0/1 anomaly label column (not a feature)"},
    {"id-column", "NAME",
     "column naming the rows (text allowed; not a feature): written after 'row' in the scores"},
    {"model-out", "FILE", "save the model (JSON)"},
    {"scores-out", "FILE", "per-row scores (CSV)"},
    {"trace-out", "FILE", "optimizer trace (CSV)"},
    {"fd-out", "FILE", "Fisher-divergence curve (CSV)"},
    {"contamination", "C",
     "share of rows to flag as outliers, 'auto' (0.1) or in (0, 0.5]: the threshold is the C "
     "quantile of log values at rows the scoring model did not fit (a 5-fold cross-fit), saved "
     "in the model; the scores get an outlier column"},
    {"kind", "KIND", "gmm|moons|rings|square|cosine|blocks|shift (label = sample)"},
    {"n", "N", "number of rows (default 500)"},
    {"anomalies", "X", "share of uniform anomalies, label 1 (default 0)"},
    {"random-seed", "S", "random seed (default 0)"},
    {"out", "FILE", "output CSV/TSV file"},
    {"test-fraction", "X", "share of rows in the test part (default 0.3)"},
    {"stratify", nullptr, "keep the label proportions in both parts"},
    {"subsample", "N", "first draw at most N rows (default 10000)"},
    {"train-out", "FILE", "training part (CSV/TSV)"},
    {"test-out", "FILE", "test part (CSV/TSV)"},
    {"data-dir", "DIRS",
     "folders of ADBench .npz files, comma-separated; each folder is a family of datasets "
     "(e.g. classical sets and deep-feature embeddings)"},
    {"reference", "METHOD",
     "the method per-family summaries count sets far below (default iforest when run)"},
    {"seeds", "LIST", "comma-separated split seeds (default 42)"},
    {"only", "LIST", "comma-separated substrings of file names to run"},
    {"curves-out", "FILE",
     "every FD curve with the AUC at each grid point (CSV; the sweep's models, as --hindsight)"},
    {"hindsight", nullptr,
     "also report each tuned method's best AUC over its grid (the sweep's models, ranking in "
     "the scaled coordinates), and per family the mean hindsight gap (that best minus the "
     "chosen l's AUC)"},
    {"estimators", "LIST",
     "methods side by side: NAME[:OPTION=VALUE...], comma-separated (e.g. "
     "sosrep,sosrep:selection=paper,kde,iforest,knn)"},
    {"duplicate-anomalies", "X",
     "ADBench's duplicated anomalies: each part's anomalies redrawn X times over with "
     "replacement (default 1: off)"},
    {"table-out", "FILE", "every run as CSV (an interrupted run leaves FILE.partial)"},
    {"json-out", "FILE", "every run and the per-method summary (JSON)"},
    {"resume", nullptr, "skip the runs already in --table-out's partial table"},
    {"lodo", "LIST",
     "candidate rules (--estimators methods, separated by ';'): each chosen on the datasets it "
     "is not scored on, by leave-one-dataset-out, per seed, and leave-one-family-out"},
    {"initializations", "N", "non-negative initialisations per data set (default 50)"},
    {"iterations", "N", "gradient steps per run (default 1000)"},
    {"learning-rate", "X", "lambda of both updates (default 0.01)"},
    {"worst", "K", "the statistic: mean of the K largest negative shares (default 5)"},
    {"max-rows", "N", "seeded subsample of larger data (default 1500)"},
    {"kernel", "NAME", "sdo|gaussian|laplace (default sdo)"},
    {"features", "T", "random Fourier features of the SDO kernel (default 4000)"},
    {"length-scale", "L",
     "kernel length scale (default: --length-scale-factor x median "
     "pairwise distance)"},
    {"length-scale-factor", "X", "l as a multiple of the median pairwise distance (default 0.1)"},
    {"every", "K", "write every K-th iteration to --csv-out (default 1; the last always)"},
    {"csv-out", "FILE", "the per-iteration table (CSV)"},
    {"plot-out", "FILE", "the figure (.png, .pdf or .svg)"},
    {"protocol", "P",
     "how a set becomes its parts: ours (this project's seeded 10000-row subsample and "
     "stratified 70/30 split), adbench (ADBench's generator draw for draw: NumPy's and Python's "
     "generators, sets under 1000 rows redrawn to 1000 first, seeds 1,2,3 in ADBench) or paper "
     "(the SOSREP authors' loader: adbench without that redraw) (default ours)"},
    {"families", "HOW",
     "what a family of datasets is for the per-family summaries and leave-one-family-out: "
     "folder (each --data-dir), kind (the kind of data, from ADBench's category of each set: "
     "medical, image, text, measurement, records) or a CSV file of dataset,family lines "
     "(default folder)"},
    {"summarize", "FILE",
     "fit nothing: summarize a table this command wrote (--table-out) for the run's "
     "--data-dir, --seeds and --estimators, e.g. with other --families, --reference or --lodo"},
    {"export-splits", "DIR",
     "write each dataset and seed's parts as the methods see them (min-max scaled): "
     "DIR/<file>_seed<S>_train.csv and _test.csv (with the label)"},
    {"external-scores", "DIR",
     "join other tools' scores: DIR/<file>_seed<S>.csv, one column per method, one row per "
     "row of _test.csv, higher = more anomalous"},
    {"data2", "FILE", "a second sample, same columns as --data (two-sample MMD)"},
    {"bandwidth", "H", "MMD kernel exp(-|x-y|^2 / 2 H^2) (default: median pairwise distance)"},
    {"p", "FILE", "the sample of p, the ratio's denominator (CSV/TSV or .npz)"},
    {"q", "FILE", "a sample of q, the numerator, same columns as --p (Type I)"},
    {"q-where", "COLUMN=VALUE",
     "q = the rows of --p whose COLUMN (the label or any column) equals VALUE; p = the other "
     "rows (the app's split by a column)"},
    {"q-inside", "X=A:B,Y=C:D",
     "q = the rows of --p inside the rectangle of two feature columns (raw units, edges "
     "included); p = the other rows"},
    {"p-all", nullptr, "with --q-where or --q-inside: p = every row of --p, q's rows too"},
    {"q-density", "ESTIMATOR",
     "Type II: q is the density of ESTIMATOR (at its defaults and --seed) fitted to q's rows "
     "(--q, --q-where or --q-inside) in p's scaled coordinates"},
    {"type", "1|2", "1: q is a sample (--q); 2: q is known (--q-function, --q-model, --inverse)"},
    {"q-function", "EXPR",
     "Type II: q as an expression of x1..xd in --p's units (+ - * / ^, exp, log, sqrt, sin, cos, "
     "abs, pi)"},
    {"q-model", "FILE", "Type II: q is the density of a saved model (sosrep fit --model-out)"},
    {"inverse", nullptr, "Type II: q = 1, the inverse density 1/p (bounded support only)"},
    {"weights-out", "FILE", "importance weights at the --p rows: raw, clipped, renormalized (CSV)"},
    {"ratio-model-out", "FILE", "save the ratio model (JSON; sosrep score evaluates it)"},
    {"j-out", "FILE", "the tuning criterion over the (t, lambda) grid (CSV)"},
    {"regress", "COLUMN",
     "covariate shift: least squares of COLUMN of --p, plain and importance-weighted (MSE on "
     "--q when it has COLUMN)"},
    {"mc-samples", "N",
     "Monte Carlo draws per model where no closed form or grid applies "
     "(default 4000)"},
};

} // namespace

void addFlags(QCommandLineParser& parser, const QStringList& names)
{
    for (const QString& name : names) {
        // "seed" of generate and split is the random seed (fit's --seed is an option table's).
        const QString key = name == QLatin1String("seed") ? QStringLiteral("random-seed") : name;
        const CommandFlag* flag = nullptr;
        for (const CommandFlag& f : kFlags) {
            if (key == QLatin1String(f.name)) {
                flag = &f;
            }
        }
        if (!flag) {
            throw std::logic_error("no command-line flag '" + name.toStdString() + "'");
        }
        const QString help = QString::fromLatin1(flag->help);
        parser.addOption(flag->value
                             ? QCommandLineOption(name, help, QString::fromLatin1(flag->value))
                             : QCommandLineOption(name, help));
    }
}

} // namespace sosrep::cli
