// SPDX-License-Identifier: MIT
// sosrep-bench: measures the hot paths on the same data in one run and prints a table
// (median of repeats; kernel products counted by the solvers; peak memory from /proc).
#include "core/data/npz_reader.h"
#include "core/data/scaler.h"
#include "core/data/split.h"
#include "core/data/toy_data.h"
#include "core/estimators/kde.h"
#include "core/estimators/sosrep_newton.h"
#include "core/grid/density_grid.h"
#include "core/tuning/length_scale_search.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

using namespace sosrep;

namespace {

double seconds(const std::function<void()>& f)
{
    const auto t0 = std::chrono::steady_clock::now();
    f();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

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

struct Data
{
    std::string name;
    Matrix train;
    Matrix test;
};

Data adbench(const std::string& dir, const std::string& file)
{
    const Dataset all = readNpzDataset(dir + "/" + file);
    const Dataset data = all.selectRows(subsampleRows(all.rows(), 10000, 42));
    const SplitIndices s = trainTestSplit(data.rows(), 0.3, 42, data.labels, true);
    const Dataset tr = data.selectRows(s.train);
    const Scaler sc = Scaler::fit(ScalingKind::MinMax, tr.x);
    return {file.substr(0, file.size() - 4), sc.apply(tr.x), sc.apply(data.selectRows(s.test).x)};
}

void row(const std::string& data, Eigen::Index n, Eigen::Index d, const std::string& stage,
         const std::string& detail, int products, double secs, double residual = -1)
{
    char res[32] = "-";
    if (residual >= 0) {
        std::snprintf(res, sizeof res, "%.1e", residual);
    }
    const std::string prod = products >= 0 ? std::to_string(products) : "-";
    std::printf("| %s | %ld | %ld | %s | %s | %s | %.3f | %s | %.0f |\n", data.c_str(), long(n),
                long(d), stage.c_str(), detail.c_str(), prod.c_str(), secs, res, peakMemoryMb());
    std::fflush(stdout);
}

} // namespace

int main(int argc, char** argv)
{
    const std::string dir = argc > 1 ? argv[1] : "../shared/datasets/adbench";
    const int repeats = 3;
    std::printf(
        "| data | N | d | stage | detail | kernel products | seconds | residual | peak MB |\n");
    std::printf("|---|---|---|---|---|---|---|---|---|\n");
    std::vector<Data> sets;
    ToyConfig toy;
    toy.kind = ToyKind::TwoMoons;
    toy.n = 2000;
    toy.seed = 1;
    const Matrix moons = generateToyData(toy).x;
    toy.seed = 2;
    toy.n = 600;
    sets.push_back({"moons", moons, generateToyData(toy).x});
    sets.push_back(adbench(dir, "22_magic.gamma.npz"));
    sets.push_back(adbench(dir, "32_shuttle.npz"));

    {
        // (d) at the size the grid target is stated for: N = 10^4 in d = 2.
        ToyConfig big;
        big.kind = ToyKind::TwoMoons;
        big.n = 10000;
        big.seed = 3;
        const Matrix x = generateToyData(big).x;
        FitConfig fc;
        fc.solver.solver = SolverKind::Newton;
        fc.kernel.lengthScale = 0.1 * medianPairwiseDistance(x);
        const FitResult fit = fitDensity(x, fc);
        const GridSpec g = gridAroundData(x, 0, 1, 256);
        std::vector<double> tg;
        for (int r = 0; r < repeats; ++r) {
            tg.push_back(seconds([&] { evaluateGrid(fit.model, g); }));
        }
        row("moons", x.rows(), x.cols(), "(d) 256 x 256 log-density grid",
            "exact, separable Gaussian", -1, median(tg));
        std::vector<double> tp;
        tp.push_back(seconds([&] { evaluateGridPointwise(fit.model, g); }));
        row("moons", x.rows(), x.cols(), "(d) 256 x 256 log-density grid",
            "exact, pointwise (any kernel)", -1, median(tp));
    }
    for (const Data& data : sets) {
        const Eigen::Index n = data.train.rows();
        const Eigen::Index d = data.train.cols();
        KernelSpec spec;
        spec.lengthScale = 0.1 * medianPairwiseDistance(data.train);
        // (a) kernel matrix build.
        std::vector<double> t;
        for (int r = 0; r < repeats; ++r) {
            t.push_back(seconds([&] { KernelOperator op(data.train, spec); }));
        }
        row(data.name, n, d, "(a) dense Gaussian kernel matrix", "N x N", -1, median(t));
        const KernelOperator op(data.train, spec);
        // (b) one fit per solver to residual 1e-8 (natural: the paper's lr; budget 30000).
        {
            NewtonConfig nc;
            std::vector<double> ts;
            int products = 0;
            double residual = 0;
            for (int r = 0; r < repeats; ++r) {
                NewtonSolver s(op, nc);
                ts.push_back(seconds([&] { s.run(); }));
                products = s.kernelProducts();
                residual = s.last().residual;
            }
            row(data.name, n, d, "(b) fit, l = 0.1 x median distance", "newton (default)", products,
                median(ts), residual);
        }
        for (double lr : {0.4, 0.1, 0.01}) {
            SosrepConfig cfg;
            cfg.learningRate = lr;
            cfg.iterations = lr == 0.01 ? 30000 : 5000;
            cfg.tolerance = 1e-8;
            if (lr == 0.01 && n > 3000) {
                // 30000 dense products at this N take over 20 minutes: measured at N <= 3000 only.
                continue;
            }
            SosrepSolver s(op, cfg);
            const double secs = seconds([&] { s.run(); });
            char name[64];
            std::snprintf(name, sizeof name, "natural, lr %.2g (%s)", lr,
                          toString(s.status()).c_str());
            row(data.name, n, d, "(b) fit, l = 0.1 x median distance", name, s.kernelProducts(),
                secs, s.last().residual);
        }
        {
            // The reference recipe's fixed budgets (lr 0.1 x 1000 iterations), no early stop.
            SosrepConfig cfg;
            cfg.learningRate = 0.1;
            cfg.iterations = 1000;
            cfg.tolerance = 0;
            SosrepSolver s(op, cfg);
            const double secs = seconds([&] { s.run(); });
            row(data.name, n, d, "(e) reference recipe", "natural lr 0.1 x 1000 iter",
                s.kernelProducts(), secs, s.last().residual);
        }
        // (c) the automatic fit: 15-value FD sweep with the default solver, then the final fit.
        {
            FitConfig fc;
            fc.solver.solver = SolverKind::Newton;
            fc.solver.tolerance = 1e-8;
            SearchConfig sc;
            int products = 0;
            const double secs = seconds([&] {
                LengthScaleSearch search(data.train, data.test, fc, sc);
                search.setObserver([&](const FdPoint&, const DensityModel&) {});
                const SearchResult& r = search.run();
                fc.kernel.lengthScale = r.selectedLengthScale();
                products = fitDensity(data.train, fc).kernelProducts;
            });
            row(data.name, n, d, "(c) automatic l: 15-point FD sweep", "newton, + final fit", -1,
                secs);
            (void)products;
        }
        // (d) grid rendering of the fitted model (2 plotted columns, others at medians).
        {
            FitConfig fc;
            fc.solver.solver = SolverKind::Newton;
            fc.kernel = spec;
            const FitResult fit = fitDensity(data.train, fc);
            const GridSpec g = gridAroundData(data.train, 0, 1, 256);
            std::vector<double> tg;
            for (int r = 0; r < repeats; ++r) {
                tg.push_back(seconds([&] { evaluateGrid(fit.model, g); }));
            }
            row(data.name, n, d, "(d) 256 x 256 log-density grid", "exact evaluation", -1,
                median(tg));
        }
    }
    return 0;
}
