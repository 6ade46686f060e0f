// SPDX-License-Identifier: MIT
// Benchmark: speed at small length scales and on the largest shared sets (issue 48).
#include "app/bench/bench_large_data.h"
#include "app/bench/bench_median.h"

#include "app/bench/bench_process.h"

#include "core/data/npz_reader.h"
#include "core/data/scaler.h"
#include "core/data/split.h"
#include "core/io/json.h"
#include "core/kernels/kernel_operator.h"
#include "core/pipeline/fit_route.h"
#include "core/tuning/length_scale_rules.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace sosrep::bench {
namespace {

/// "Small" in the sense: 0.01 in min-max units, here half of it, where a fit of all of
/// shuttle's rows is still exact within 2 GB (shuttle's default fit on 7000 rows takes 0.011).
constexpr double kSmallLengthScale = 0.005;

double secondsSince(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

struct FixedFit
{
    double seconds = 0.0;
    std::string backend;
    int products = 0;
    Vector logValues; // at the rows asked for
};

/// SOSREP at a fixed length scale on `x` (scaled already), the back-end as given; the log
/// values at `score` when it has rows.
FixedFit fixedFit(const Matrix& x, double lengthScale, const std::string& backend,
                  const Matrix& score = Matrix())
{
    FitSettings settings = FitSettings::defaults("sosrep");
    settings.values.setReal("length_scale", lengthScale);
    settings.values.set("backend", backend);
    const auto t0 = std::chrono::steady_clock::now();
    const FitOutcome f = fitModel(FitData{x, Matrix(), "bench", nullptr}, settings);
    checkUsable(*f.model); // a refused or diverged fit throws, and its row says why
    FixedFit out;
    if (score.rows() > 0) {
        out.logValues = f.model->logValues(score).values;
    }
    out.seconds = secondsSince(t0);
    out.backend = f.model->kernel() ? f.model->kernel()->backendName() : "-";
    out.products = f.model->report().kernelProducts;
    return out;
}

/// A top-level field of the `sosrep fit` summary (the last line of its output, JSON), as text
/// ("-" when absent or unreadable).
std::string summaryField(const std::string& output, const std::string& key)
{
    const size_t end = output.find_last_not_of('\n');
    if (end == std::string::npos) {
        return "-";
    }
    const size_t begin = output.rfind('\n', end);
    try {
        const io::Json summary = io::parseJsonObject(
            output.substr(begin == std::string::npos ? 0 : begin + 1), "summary");
        const auto it = summary.find(key);
        if (it == summary.end()) {
            return "-";
        }
        return it->is_string() ? it->get<std::string>() : it->dump();
    } catch (const std::exception&) {
        return "-";
    }
}

/// The default `sosrep fit --train FILE` as its own process: one row of the large-data table.
ChildRun defaultFitProcess(const std::string& file)
{
    return runChild({ownDirectory() + "/sosrep", "fit", "--train", file});
}

void smallLengthScaleRows(const std::string& dir)
{
    const Dataset shuttle = readNpzDataset(dir + "/32_shuttle.npz");
    const Dataset data = shuttle.selectRows(subsampleRows(shuttle.rows(), 10000, 42));
    const SplitIndices s = trainTestSplit(data.rows(), 0.3, 42, data.labels, true);
    const Matrix train = data.selectRows(s.train).x;
    const Matrix x = Scaler::fit(ScalingKind::MinMax, train).apply(train);
    const double medianDistance = medianPairwiseDistance(x); // over 1000 seeded rows
    std::printf("\n| fixed l on the shuttle split (%ld rows, min-max) | back-end | kernel products "
                "| seconds (median of 3) |\n|---|---|---|---|\n",
                long(x.rows()));
    double small = 0.0, typical = 0.0;
    for (const double l : {0.01, medianDistance}) {
        std::vector<double> t;
        FixedFit f;
        for (int r = 0; r < 3; ++r) {
            f = fixedFit(x, l, "auto");
            t.push_back(f.seconds);
        }
        (l == 0.01 ? small : typical) = median(t);
        std::printf("| l = %.4g%s | %s | %d | %.3f |\n", l,
                    l == 0.01 ? " (small)" : " (the median pairwise distance)", f.backend.c_str(),
                    f.products, median(t));
        std::fflush(stdout);
    }
    std::printf("| t(l = 0.01) / t(l = median distance) | | | %.2f |\n", small / typical);
}

void shuttleRows(const std::string& dir)
{
    const std::string file = dir + "/32_shuttle.npz";
    const ChildRun d = defaultFitProcess(file);
    std::printf("\n| all of shuttle | rows | seconds | peak MB | l | back-end | AUC-ROC | max "
                "relative difference of p to the exact kernel's |\n|---|---|---|---|---|---|---|"
                "---|\n");
    const std::string l = summaryField(d.output, "length_scale");
    std::printf("| default fit, `sosrep fit --train 32_shuttle.npz` (own process) | %s | %.2f | "
                "%.0f | %s | %s | %s | - |\n",
                summaryField(d.output, "n_train").c_str(), d.seconds, d.peakMb, l.c_str(),
                summaryField(d.output, "backend").c_str(),
                summaryField(d.output, "auc_roc").c_str());
    std::fflush(stdout);
    // At a small l, on every row: the exact kernel held sparse, and Nystroem's 1000 landmarks.
    const double lengthScale = kSmallLengthScale;
    const Dataset all = readNpzDataset(file);
    const Matrix x = Scaler::fit(ScalingKind::MinMax, all.x).apply(all.x);
    const FixedFit exact = fixedFit(x, lengthScale, "sparse", x);
    std::printf("| fit at a fixed l, exact kernel (sparse), every row scored | %ld | %.2f | - | "
                "%.6g | %s | - | 0 |\n",
                long(x.rows()), exact.seconds, lengthScale, exact.backend.c_str());
    std::fflush(stdout);
    try {
        const FixedFit low = fixedFit(x, lengthScale, "lowrank", x);
        const double worst =
            ((low.logValues - exact.logValues).array().exp() - 1.0).abs().maxCoeff();
        std::printf("| the same with Nystroem (M = 1000) | %ld | %.2f | - | %.6g | %s | - | %.3g "
                    "|\n",
                    long(x.rows()), low.seconds, lengthScale, low.backend.c_str(), worst);
    } catch (const std::exception& e) {
        std::printf("| the same with Nystroem (M = 1000) | %ld | - | - | %.6g | nystrom | - | not "
                    "fitted: %s |\n",
                    long(x.rows()), lengthScale, e.what());
    }
    std::fflush(stdout);
}

} // namespace

void largeDataSpeed(const std::string& dir)
{
    smallLengthScaleRows(dir);
    shuttleRows(dir);
    const ChildRun skin = defaultFitProcess(dir + "/33_skin.npz");
    std::printf("\n| all of skin | rows | seconds | peak MB | l | back-end | AUC-ROC |\n"
                "|---|---|---|---|---|---|---|\n| default fit, `sosrep fit --train 33_skin.npz` "
                "(own process) | %s | %.2f | %.0f | %s | %s | %s |\n",
                summaryField(skin.output, "n_train").c_str(), skin.seconds, skin.peakMb,
                summaryField(skin.output, "length_scale").c_str(),
                summaryField(skin.output, "backend").c_str(),
                summaryField(skin.output, "auc_roc").c_str());
    std::fflush(stdout);
}

} // namespace sosrep::bench
