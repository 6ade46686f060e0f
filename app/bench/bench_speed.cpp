// SPDX-License-Identifier: MIT
// Benchmark: the default fit on the shuttle split beside its peers (median of 3 runs).
#include "app/bench/bench_speed.h"
#include "app/bench/bench_median.h"

#include "app/bench/bench_kernel_sos.h"
#include "app/bench/bench_large_data.h"
#include "app/bench/bench_process.h"
#include "app/bench/bench_ratio.h"
#include "core/data/npz_reader.h"
#include "core/data/scaler.h"
#include "core/data/split.h"
#include "core/kernels/kernel_operator.h"
#include "core/metrics/auc.h"
#include "core/pipeline/fit_route.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace sosrep::bench {
namespace {

struct Split
{
    Dataset train; // raw units (the peer scales them itself, as `sosrep fit` does)
    Dataset test;
};

/// The ADBench protocol's split (`sosrep split --stratify --seed 42`): at most `rows` rows, a
/// stratified 70/30 split.
Split protocolSplit(const Dataset& all, Eigen::Index rows, double testFraction)
{
    const Dataset data = all.selectRows(subsampleRows(all.rows(), rows, 42));
    const SplitIndices s = trainTestSplit(data.rows(), testFraction, 42, data.labels, true);
    return {data.selectRows(s.train), data.selectRows(s.test)};
}

struct OurFit
{
    double seconds = 0.0;
    double lengthScale = 0.0;
    double auc = 0.0;
    std::string backend;
};

/// What `sosrep fit --train --test --label-column y` does with its defaults: min-max scaling
/// fitted on the training rows, the fit route (purpose density), the test rows scored.
OurFit ourDefaultFit(const Split& s)
{
    const auto t0 = std::chrono::steady_clock::now();
    const Scaler sc = Scaler::fit(ScalingKind::MinMax, s.train.x);
    FitSettings settings = FitSettings::defaults("sosrep");
    settings.resolvePurpose("density");
    const FitOutcome f =
        fitModel(FitData{sc.apply(s.train.x), Matrix(), "bench", nullptr}, settings);
    const LogDensity ld = f.model->logValues(sc.apply(s.test.x));
    OurFit out;
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    out.lengthScale = f.lengthScale;
    const auto& y = s.test.labels;
    const bool bothClasses = y && y->sum() > 0 && y->sum() < y->size();
    out.auc = bothClasses ? aucRoc(-ld.values, *y) : std::nan(""); // fits on (almost) all rows
    out.backend = f.model->kernel() ? f.model->kernel()->backendName() : "-";
    return out;
}

/// The peer's wall seconds on `train` (written to a temporary CSV), or a negative value when
/// it could not run.
double peerSeconds(const Dataset& train, const std::string& python, const std::string& script)
{
    char path[] = "/tmp/sosrep-bench-peer-XXXXXX";
    const int fd = mkstemp(path);
    if (fd < 0) {
        return -1.0;
    }
    close(fd);
    {
        std::ofstream out(path);
        for (Eigen::Index j = 0; j < train.x.cols(); ++j) {
            out << "x" << j << ",";
        }
        out << "y\n";
        out.precision(17);
        for (Eigen::Index i = 0; i < train.x.rows(); ++i) {
            for (Eigen::Index j = 0; j < train.x.cols(); ++j) {
                out << train.x(i, j) << ",";
            }
            out << (train.labels ? (*train.labels)(i) : 0) << "\n";
        }
    }
    const std::string cmd = python + " " + script + " " + path + " 2>/dev/null";
    double secs = -1.0;
    if (FILE* p = popen(cmd.c_str(), "r")) {
        char line[256] = {0};
        if (std::fgets(line, sizeof line, p)) {
            std::sscanf(line, "seconds %lf", &secs);
        }
        pclose(p);
    }
    std::remove(path);
    return secs;
}

/// Least-squares slope of log t against log N.
double slope(const std::vector<std::pair<double, double>>& points)
{
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    const double n = double(points.size());
    for (const auto& [x, y] : points) {
        sx += std::log(x);
        sy += std::log(y);
        sxx += std::log(x) * std::log(x);
        sxy += std::log(x) * std::log(y);
    }
    return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

std::string cell(double v, const char* format = "%.2f")
{
    if (v < 0.0) {
        return "not run (no scikit-learn)";
    }
    char buf[64];
    std::snprintf(buf, sizeof buf, format, v);
    return buf;
}

/// The app's batch run on a data file (`sosrep-studio FILE --screenshot ... --tab 3`, offscreen):
/// seconds from its start until the density view and the Scores view had their data, as it
/// prints them, and its wall seconds; negative when it did not run.
struct AppRun
{
    double density = -1.0;
    double scores = -1.0;
    double wall = -1.0;
};

AppRun appRun(const std::string& studio, const std::string& data)
{
    AppRun run;
    const std::string shot = "/tmp/sosrep-bench-app-" + std::to_string(getpid()) + ".png";
    const std::string cmd = "QT_QPA_PLATFORM=offscreen " + studio + " " + data + " --screenshot " +
                            shot + " --size 1400x900 --tab 3 2>/dev/null";
    const auto t0 = std::chrono::steady_clock::now();
    if (FILE* p = popen(cmd.c_str(), "r")) {
        char line[256];
        while (std::fgets(line, sizeof line, p)) {
            std::sscanf(line, "density view ready %lf", &run.density);
            std::sscanf(line, "scores view ready %lf", &run.scores);
        }
        if (pclose(p) == 0) {
            run.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        }
    }
    std::remove(shot.c_str());
    return run;
}

/// FIRE with its J tuning (10 widths x 5 folds x 6 lambdas) at n = m = 1000 on the three known
/// shifts of `sosrep-bench --ratio`, median of 3 seeds, beside uLSIF with leave-one-out.
void ratioTuningSpeed()
{
    std::vector<GaussianShift> shifts(3);
    shifts[1].dim = shifts[1].shifted = 2;
    shifts[2].dim = 10;
    shifts[2].shifted = 2;
    std::printf("\n| FIRE L2,p with J tuning, n = m = 1000 | seconds (median of 3) | NMSE "
                "(median) | uLSIF-LOO seconds | uLSIF-LOO NMSE |\n|---|---|---|---|---|\n");
    for (const GaussianShift& shift : shifts) {
        std::vector<double> fs, fe, us, ue;
        for (int s = 0; s < 3; ++s) {
            const RatioRun f = timeRatioFit(shift, 1000, s, "fire", {{"loss", "l2p"}});
            const RatioRun u = timeRatioFit(shift, 1000, s, "ulsif", {});
            fs.push_back(f.seconds);
            fe.push_back(f.nmse);
            us.push_back(u.seconds);
            ue.push_back(u.nmse);
        }
        std::printf("| %s | %.2f | %.3f | %.2f | %.3f |\n", shift.name().c_str(), median(fs),
                    median(fe), median(us), median(ue));
        std::fflush(stdout);
    }
}

} // namespace

void defaultFitSpeed(const std::string& dir, const std::string& python, const std::string& peer)
{
    const Dataset shuttle = readNpzDataset(dir + "/32_shuttle.npz");
    const Split main = protocolSplit(shuttle, 10000, 0.3);
    std::vector<double> ours, theirs;
    OurFit last;
    for (int r = 0; r < 3; ++r) {
        last = ourDefaultFit(main);
        ours.push_back(last.seconds);
        theirs.push_back(peerSeconds(main.train, python, peer));
    }
    const double us = median(ours), them = median(theirs);
    std::printf("| what | N | ours (median of 3) | peer in the same run (median of 3) | ratio | "
                "l | AUC-ROC | peak MB |\n|---|---|---|---|---|---|---|---|\n");
    std::printf("| `sosrep fit` defaults, shuttle seed-42 split | %ld | %.2f s | %s s | %s | "
                "%.5g | %.4f | %.0f |\n",
                long(main.train.rows()), us, cell(them).c_str(),
                them > 0 ? cell(us / them, "%.3f").c_str() : "-", last.lengthScale, last.auc,
                peakMemoryMb());
    std::fflush(stdout);
    // The app on all of shuttle (fit on a seeded 10 000, every row scored, every view).
    std::vector<double> density, scores, wall;
    for (int r = 0; r < 3; ++r) {
        const AppRun a = appRun(ownDirectory() + "/sosrep-studio", dir + "/32_shuttle.npz");
        density.push_back(a.density);
        scores.push_back(a.scores);
        wall.push_back(a.wall);
    }
    const double shown = median(density);
    std::printf("| the app, `sosrep-studio 32_shuttle.npz --screenshot --tab 3`: start until "
                "the density view has its data (Scores view: %.2f s; wall %.2f s) | %ld | "
                "%.2f s | %s s | %s | - | - | - |\n",
                median(scores), median(wall), long(shuttle.rows()), shown, cell(them).c_str(),
                them > 0 && shown > 0 ? cell(shown / them, "%.3f").c_str() : "-");
    std::fflush(stdout);
    ratioTuningSpeed();

    std::printf("\n| N | data | back-end | ours (s) | peer (s) | l |\n|---|---|---|---|---|---|\n");
    std::vector<std::pair<double, double>> dense, landmarks, peerPoints;
    for (const Eigen::Index n : {1000, 2000, 5000, 7000, 10000, 20000, 49097}) {
        // The training part is n rows: subsample n / 0.7 rows of shuttle, or all of it.
        const Split s = protocolSplit(shuttle, std::min<Eigen::Index>(shuttle.rows(), n * 10 / 7),
                                      n >= 49097 ? 0.0001 : 0.3);
        const OurFit f = ourDefaultFit(s);
        const double p = s.train.rows() <= 10000 ? peerSeconds(s.train, python, peer) : -2.0;
        (f.backend == "dense" ? dense : landmarks).push_back({double(s.train.rows()), f.seconds});
        if (p > 0) {
            peerPoints.push_back({double(s.train.rows()), p});
        }
        std::printf("| %ld | shuttle | %s | %.2f | %s | %.4g |\n", long(s.train.rows()),
                    f.backend.c_str(), f.seconds, p == -2.0 ? "-" : cell(p).c_str(), f.lengthScale);
        std::fflush(stdout);
    }
    std::printf("\nslope of log t on log N: ours dense %.2f, ours beyond dense %.2f, peer %s\n",
                slope(dense), slope(landmarks),
                peerPoints.size() > 1 ? cell(slope(peerPoints)).c_str() : "-");
    largeDataSpeed(dir); // issue 48: small l, all of shuttle exact, all of skin
}

} // namespace sosrep::bench
