// SPDX-License-Identifier: MIT
// Benchmark: density-ratio fits on known Gaussian shifts (time, NMSE, tuned t and lambda).
#include "app/bench/bench_ratio.h"
#include "app/bench/bench_median.h"

#include "core/estimators/fit_settings.h"
#include "core/estimators/ratio_model.h"
#include "core/estimators/registry.h"
#include "core/ratio/known_shifts.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

namespace sosrep::bench {
namespace {

struct Method
{
    std::string label;
    std::string estimator;
    std::vector<std::pair<std::string, std::string>> options;
};

std::string number(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3g", v);
    return buf;
}

} // namespace

RatioRun timeRatioFit(const GaussianShift& shift, int n, int s, const std::string& estimator,
                      const std::vector<std::pair<std::string, std::string>>& options)
{
    const uint64_t seed = 1000 * uint64_t(n) + 10 * uint64_t(shift.dim) + uint64_t(s);
    const Matrix p = shift.sampleP(n, seed);
    const Matrix q = shift.sampleQ(n, seed + 500);
    const Matrix test = shift.sampleP(5000, seed + 900);
    FitSettings settings = FitSettings::defaults(estimator);
    for (const auto& [k, v] : options) {
        settings.values.set(k, v);
    }
    settings.values.set("seed", std::to_string(s));
    const auto start = std::chrono::steady_clock::now();
    const auto model = EstimatorRegistry::instance().get(estimator).fit(
        FitInput{p, &q, KernelSpec{}, settings.values}, FitControl{});
    RatioRun run;
    run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const auto& ratio = dynamic_cast<const RatioModel&>(*model);
    run.nmse = normalizedSquaredError(ratio.ratio(test), shift.ratio(test));
    run.t = ratio.t();
    run.lambda = ratio.lambda();
    for (const auto& [key, value] : model->report().fields) {
        if (key == "form") {
            run.form = std::get<std::string>(value);
        }
    }
    return run;
}

void densityRatios(int seeds)
{
    std::vector<GaussianShift> shifts(3);
    shifts[1].dim = 2;
    shifts[1].shifted = 2;
    shifts[2].dim = 10;
    shifts[2].shifted = 2;
    const std::vector<Method> methods{{"FIRE L2,p", "fire", {{"loss", "l2p"}}},
                                      {"FIRE mixed (gamma 0.5)", "fire", {{"loss", "mixed"}}},
                                      {"FIRE RKHS (KMM-like)", "fire", {{"loss", "rkhs"}}},
                                      {"FIRE cut-off", "fire", {{"loss", "cutoff"}}},
                                      {"uLSIF, LOO-CV", "ulsif", {}},
                                      {"TIKDE", "tikde", {}},
                                      {"SOSREP plug-in", "sosrep-ratio", {}}};
    std::printf("| shift | n = m | method | form | NMSE (median of %d) | seconds (median) | t | "
                "lambda or threshold |\n",
                seeds);
    std::printf("|---|---|---|---|---|---|---|---|\n");
    for (const int n : {1000, 5000}) {
        for (const GaussianShift& shift : shifts) {
            for (const Method& m : methods) {
                std::vector<double> errors, seconds, ts, lambdas;
                std::string form = "-";
                for (int s = 0; s < seeds; ++s) {
                    const RatioRun run = timeRatioFit(shift, n, s, m.estimator, m.options);
                    errors.push_back(run.nmse);
                    seconds.push_back(run.seconds);
                    ts.push_back(run.t);
                    lambdas.push_back(run.lambda);
                    form = run.form;
                }
                const bool tuned = m.estimator != "sosrep-ratio";
                std::printf("| %s | %d | %s | %s | %.3f | %.2f | %s | %s |\n", shift.name().c_str(),
                            n, m.label.c_str(), form.c_str(), median(errors), median(seconds),
                            tuned ? number(median(ts)).c_str() : "-",
                            tuned ? number(median(lambdas)).c_str() : "-");
                std::fflush(stdout);
            }
        }
    }
}

} // namespace sosrep::bench
