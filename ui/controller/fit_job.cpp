// SPDX-License-Identifier: MIT
#include "ui/controller/fit_job.h"

#include "core/data/split.h"
#include "core/errors.h"

#include <chrono>

namespace sosrep::ui {
namespace {

using Clock = std::chrono::steady_clock;

Matrix rowsOf(const Matrix& x, const std::vector<Eigen::Index>& idx)
{
    Matrix out(static_cast<Eigen::Index>(idx.size()), x.cols());
    for (size_t i = 0; i < idx.size(); ++i) {
        out.row(static_cast<Eigen::Index>(i)) = x.row(idx[i]);
    }
    return out;
}

FitConfig fitConfigOf(const ModelSettings& s)
{
    FitConfig c;
    c.estimator = EstimatorKind::Sosrep;
    c.kernel.type = s.kernel;
    c.kernel.lengthScale = s.lengthScale;
    c.kernel.sdoOrder = s.sdoOrder;
    c.kernel.features = s.features;
    c.kernel.sdoMethod = s.sdoMethod;
    c.kernel.seed = s.seed;
    c.solver.solver = SolverKind::Natural;
    c.solver.learningRate = s.learningRate;
    c.solver.iterations = s.iterations;
    c.solver.tolerance = 1e-9;
    c.solver.seed = s.seed;
    return c;
}

} // namespace

FitJobResult runFitJob(const FitJobInput& in, const FitJobSink& sink,
                       const std::atomic<bool>& cancel)
{
    const auto start = Clock::now();
    FitJobResult out;
    try {
        const ModelSettings& s = in.settings;
        FitConfig cfg = fitConfigOf(s);
        cfg.kernel.validate(static_cast<int>(in.x.cols()));
        // Large data: fit on a seeded subsample (every row is still scored and plotted).
        const bool subsample = s.maxFitRows > 0 && in.x.rows() > s.maxFitRows;
        const Matrix fitX =
            subsample ? rowsOf(in.x, subsampleRows(in.x.rows(), s.maxFitRows, s.seed)) : in.x;
        out.fitRows = static_cast<int>(fitX.rows());
        cfg.solver.validate();
        if (s.autoLengthScale) {
            // FD on a seeded 80/20 split of the rows (design.md section 4); labels never used.
            const SplitIndices split = trainTestSplit(fitX.rows(), 0.2, s.seed);
            SearchConfig sc;
            sc.rule = s.selection;
            if (s.estimator == EstimatorKind::Kde) {
                cfg.estimator = EstimatorKind::Kde;
            }
            // The sweep uses the Newton solver (few kernel products; safeguarded for SDO); the
            // live runs stay natural/standard.
            FitConfig sweep = cfg;
            sweep.solver.solver = SolverKind::Newton;
            sweep.solver.tolerance = 1e-8;
            LengthScaleSearch search(rowsOf(fitX, split.train), rowsOf(fitX, split.test), sweep,
                                     sc);
            search.setObserver([&](const FdPoint& p, const DensityModel&) {
                if (sink.fdPoint) {
                    sink.fdPoint(p);
                }
            });
            // Polled every solver iteration: post progress only when the grid position moves.
            int lastDone = -1;
            const SearchResult& r = search.run([&](int done, int total) {
                if (sink.progress && done != lastDone) {
                    lastDone = done;
                    sink.progress("Fisher-divergence sweep", done, total);
                }
                return !cancel.load();
            });
            if (r.cancelled || cancel.load()) {
                out.cancelled = true;
                return out;
            }
            out.search = r;
            cfg.kernel.lengthScale = r.selectedLengthScale();
            cfg.estimator = EstimatorKind::Sosrep;
        }
        out.lengthScale = cfg.kernel.lengthScale;

        // Natural and standard gradient from the same initialisation, stepped alternately so
        // both traces grow together in the live view.
        auto kernel = std::make_shared<const KernelOperator>(fitX, cfg.kernel);
        const Vector alpha0 = initialAlpha(*kernel, s.seed);
        SosrepConfig natCfg = cfg.solver;
        SosrepConfig stdCfg = cfg.solver;
        stdCfg.solver = SolverKind::Standard;
        SosrepSolver nat(*kernel, natCfg, alpha0);
        SosrepSolver std_(*kernel, stdCfg, alpha0);
        size_t sentNat = 0;
        size_t sentStd = 0;
        auto flush = [&] {
            if (!sink.traceRows) {
                return;
            }
            std::vector<TraceRow> a(nat.trace().begin() + static_cast<long>(sentNat),
                                    nat.trace().end());
            std::vector<TraceRow> b(std_.trace().begin() + static_cast<long>(sentStd),
                                    std_.trace().end());
            sentNat = nat.trace().size();
            sentStd = std_.trace().size();
            if (!a.empty() || !b.empty()) {
                sink.traceRows(a, b);
            }
        };
        auto lastFlush = Clock::now();
        bool natRunning = true;
        bool stdRunning = true;
        while (natRunning || stdRunning) {
            if (cancel.load()) {
                flush();
                out.cancelled = true;
                return out;
            }
            if (natRunning) {
                natRunning = nat.step();
            }
            if (stdRunning) {
                stdRunning = std_.step();
            }
            if (Clock::now() - lastFlush > std::chrono::milliseconds(50)) {
                flush();
                lastFlush = Clock::now();
                if (sink.progress) {
                    sink.progress("SOSREP natural vs standard",
                                  std::max(nat.iteration(), std_.iteration()), s.iterations);
                }
            }
        }
        flush();
        out.naturalStatus = nat.status();
        out.standardStatus = std_.status();
        out.sosrepNatural = DensityModel{EstimatorKind::Sosrep, kernel, nat.alpha()};
        out.sosrepStandard = DensityModel{EstimatorKind::Sosrep, kernel, std_.alpha()};
        out.kde = makeKde(kernel);
        if (s.estimator == EstimatorKind::Kde) {
            out.primary = out.kde;
        } else {
            if ((s.solver == SolverKind::Natural ? nat.status() : std_.status()) ==
                SolverStatus::Diverged) {
                throw std::runtime_error(
                    "the " + toString(s.solver) + " gradient run diverged at iteration " +
                    std::to_string((s.solver == SolverKind::Natural ? nat : std_).iteration()) +
                    "; lower the learning rate");
            }
            out.primary = s.solver == SolverKind::Natural ? out.sosrepNatural : out.sosrepStandard;
        }

        if (in.x.cols() >= 2) {
            GridSpec g = gridAroundData(in.x, in.plotX, in.plotY, in.gridResolution);
            auto gridProgress = [&](const char* stage) {
                return [&, stage](int done, int total) {
                    if (sink.progress) {
                        sink.progress(stage, done, total);
                    }
                    return !cancel.load();
                };
            };
            out.kdeGrid = evaluateGrid(out.kde, g, gridProgress("KDE grid"));
            out.sosrepGrid = evaluateGrid(out.sosrepNatural, g, gridProgress("SOSREP grid"));
            // The shown model's grid is one of those two unless it is the standard-gradient run.
            const bool standard =
                s.estimator == EstimatorKind::Sosrep && s.solver == SolverKind::Standard;
            out.grid = s.estimator == EstimatorKind::Kde ? out.kdeGrid
                       : standard ? evaluateGrid(out.primary, g, gridProgress("density grid"))
                                  : out.sosrepGrid;
            if (out.grid.cancelled || out.kdeGrid.cancelled || out.sosrepGrid.cancelled) {
                out.cancelled = true;
                return out;
            }
        }
        out.rowLogDensity = out.primary.logDensity(in.x).values;
    } catch (const std::exception& e) {
        out.error = e.what();
    }
    out.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return out;
}

} // namespace sosrep::ui
