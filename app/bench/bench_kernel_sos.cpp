// SPDX-License-Identifier: MIT
// Benchmark: kernel SoS fits and MMD evaluations, their time and peak memory.
#include "app/bench/bench_kernel_sos.h"

#include "core/metrics/mmd.h"
#include "core/pipeline/fit_route.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <vector>

namespace sosrep::bench {
namespace {

/// Resets the process's peak resident set size (Linux >= 4.0: "5" to clear_refs), so that the
/// next reading of VmHWM is the peak of what follows.
void resetPeak()
{
    std::ofstream("/proc/self/clear_refs") << "5";
}

template <typename F> double medianSeconds(int repeats, F&& f)
{
    std::vector<double> t;
    for (int r = 0; r < repeats; ++r) {
        const auto start = std::chrono::steady_clock::now();
        f();
        t.push_back(
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

std::shared_ptr<const FittedModel> fitFixed(const Matrix& x, const std::string& estimator,
                                            double lengthScale, int support = 0)
{
    FitSettings s = FitSettings::defaults(estimator);
    s.values.setReal("length_scale", lengthScale);
    if (support > 0) {
        s.values.set("support", std::to_string(support));
    }
    return fitModel(FitData{x, Matrix(), "bench", nullptr}, s, FitObserver()).model;
}

std::string fieldText(const FittedModel& m, const std::string& key)
{
    for (const auto& [k, v] : m.report().fields) {
        if (k == key) {
            char buf[64];
            if (const double* d = std::get_if<double>(&v)) {
                std::snprintf(buf, sizeof buf, "%.3g", *d);
            } else if (const long long* i = std::get_if<long long>(&v)) {
                std::snprintf(buf, sizeof buf, "%lld", *i);
            } else {
                return std::get<std::string>(v);
            }
            return buf;
        }
    }
    return "?";
}

} // namespace

double peakMemoryMb()
{
    std::ifstream in("/proc/self/status");
    std::string key;
    while (in >> key) {
        if (key == "VmHWM:") {
            double kb = 0;
            in >> kb;
            return kb / 1024.0;
        }
    }
    return 0.0;
}

void kernelSosAndMmd(const std::string& smallName, const Matrix& small, const std::string& bigName,
                     const Matrix& big, const Matrix& bigTest, int repeats, const RowFn& row)
{
    // l = 0.3: the moons are raw (span ~3), magic is min-max scaled in d = 10 (median distance
    // ~0.5); at l = 0.1 there the support points barely see each other and FISTA stops at once.
    struct Case
    {
        const std::string& name;
        const Matrix& x;
        double l;
    };
    for (const Case& c : {Case{smallName, small, 0.3}, Case{bigName, big, 0.3}}) {
        for (int m : {50, 150}) {
            std::shared_ptr<const FittedModel> model;
            resetPeak();
            const double s =
                medianSeconds(repeats, [&] { model = fitFixed(c.x, "sos-mmd", c.l, m); });
            row(c.name, c.x.rows(), c.x.cols(), "(g) kernel SoS fit (FISTA, projected MMD)",
                "m = " + std::to_string(m) + ", l = " + std::to_string(c.l).substr(0, 4), s,
                peakMemoryMb(),
                fieldText(*model, "iterations") + " iterations, " +
                    toString(model->report().status));
        }
    }
    // The default fit: l tuned by the 5-fold Fisher-divergence sweep (17 scales), m = 50.
    for (const Case& c : {Case{smallName, small, 0.0}, Case{bigName, big, 0.0}}) {
        FitOutcome fit;
        resetPeak();
        const double s = medianSeconds(repeats, [&] {
            fit = fitModel(FitData{c.x, Matrix(), "bench", nullptr},
                           FitSettings::defaults("sos-mmd"), FitObserver());
        });
        row(c.name, c.x.rows(), c.x.cols(), "(g) kernel SoS fit, defaults (l tuned)",
            "m = 50, l = " + std::to_string(fit.lengthScale).substr(0, 5), s, peakMemoryMb(),
            fieldText(*fit.model, "iterations") + " iterations (final fit), " +
                toString(fit.model->report().status));
    }
    // (h) MMD^2 between held-out rows and models fitted on the big set.
    MmdOptions options;
    options.bandwidth = medianPairwiseDistance(big, 0);
    struct Model
    {
        std::string estimator;
        int support;
    };
    for (const Model& spec : {Model{"kde", 0}, Model{"sos-mmd", 50}, Model{"sosrep", 0}}) {
        const auto model = fitFixed(big, spec.estimator, 0.3, spec.support);
        MmdResult r;
        resetPeak();
        const double s = medianSeconds(repeats, [&] {
            r = mmd(MmdMeasure::ofSample(bigTest), MmdMeasure::ofModel(*model), big, options);
        });
        char value[64];
        std::snprintf(value, sizeof value, "MMD^2 = %.3g", r.mmd2);
        row(bigName, big.rows(), big.cols(),
            "(h) MMD^2, " + std::to_string(bigTest.rows()) + " held-out rows vs model",
            spec.estimator + ": " + toString(r.method), s, peakMemoryMb(),
            std::string(value) + "; " + r.detail);
    }
}

} // namespace sosrep::bench
