// SPDX-License-Identifier: MIT
#include "app/cli/fit_pipeline.h"

#include "core/data/split.h"
#include "core/estimators/kde.h"

#include <chrono>

namespace sosrep::cli {

FitOutcome runFit(const MatrixRef& train, const MatrixRef& test, const FitRequest& request,
                  const LengthScaleSearch::Observer& observer)
{
    const auto start = std::chrono::steady_clock::now();
    FitOutcome out;
    FitConfig cfg = request.fit;
    if (request.lengthScaleRule == "scott") {
        cfg.kernel.lengthScale = scottBandwidth(train);
    } else if (request.lengthScaleRule == "silverman") {
        cfg.kernel.lengthScale = silvermanBandwidth(train);
    }
    if (request.autoLengthScale) {
        Matrix fitPart;
        Matrix validation;
        if (test.rows() > 0) {
            fitPart = train;
            validation = test;
            out.validation = "test";
        } else {
            const SplitIndices s = trainTestSplit(train.rows(), 0.2, request.seed);
            fitPart.resize(static_cast<Eigen::Index>(s.train.size()), train.cols());
            validation.resize(static_cast<Eigen::Index>(s.test.size()), train.cols());
            for (size_t i = 0; i < s.train.size(); ++i) {
                fitPart.row(static_cast<Eigen::Index>(i)) = train.row(s.train[i]);
            }
            for (size_t i = 0; i < s.test.size(); ++i) {
                validation.row(static_cast<Eigen::Index>(i)) = train.row(s.test[i]);
            }
            out.validation = "split-80-20";
        }
        LengthScaleSearch search(fitPart, validation, cfg, request.search);
        search.setObserver(observer);
        out.search = search.run();
        cfg.kernel.lengthScale = out.search->selectedLengthScale();
    }
    out.model = fitDensity(train, cfg);
    if (request.runBothSolvers && cfg.estimator == EstimatorKind::Sosrep) {
        FitConfig other = cfg;
        other.solver.solver =
            cfg.solver.solver == SolverKind::Natural ? SolverKind::Standard : SolverKind::Natural;
        out.companion = fitDensity(train, other);
    }
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return out;
}

} // namespace sosrep::cli
