// SPDX-License-Identifier: MIT
// Cross-validated choice of t and lambda for ratio estimators.
#include "core/ratio/ratio_tuning.h"

#include "core/errors.h"
#include "core/random.h"
#include "core/ratio/ratio_gaussian.h"
#include "core/util/float_mode.h"
#include "core/util/parallel_failure.h"

#include <atomic>
#include <cmath>
#include <exception>
#include <functional>
#include <limits>
#include <numeric>

namespace sosrep {
namespace {

Matrix rowsWhere(const Matrix& x, const std::vector<int>& fold, int k, bool equal)
{
    Eigen::Index count = 0;
    for (int f : fold) {
        count += (f == k) == equal ? 1 : 0;
    }
    Matrix out(count, x.cols());
    Eigen::Index r = 0;
    for (size_t i = 0; i < fold.size(); ++i) {
        if ((fold[i] == k) == equal) {
            out.row(r++) = x.row(static_cast<Eigen::Index>(i));
        }
    }
    return out;
}

Vector entriesWhere(const Vector& v, const std::vector<int>& fold, int k, bool equal)
{
    std::vector<double> out;
    for (size_t i = 0; i < fold.size(); ++i) {
        if ((fold[i] == k) == equal) {
            out.push_back(v(static_cast<Eigen::Index>(i)));
        }
    }
    return Eigen::Map<const Vector>(out.data(), static_cast<Eigen::Index>(out.size()));
}

/// The criterion of fold k at width t for every lambda of the grid.
Vector foldCriterion(const Matrix& xp, const RatioTarget& target, const std::vector<int>& fold,
                     int k, double t, double width, double dim, const RatioGrid& grid,
                     const TestFunctions& u, const Vector& uqMean, const FoldFitter& fitter)
{
    const Matrix trainP = rowsWhere(xp, fold, k, false);
    const Matrix heldP = rowsWhere(xp, fold, k, true);
    Vector trainQ;
    Vector heldQ;
    FoldInput in{trainP, heldP};
    if (target.typeTwo()) {
        trainQ = entriesWhere(*target.values, fold, k, false);
        heldQ = entriesWhere(*target.values, fold, k, true);
        in.trainQ = &trainQ;
        in.heldQ = &heldQ;
    }
    const FoldPath path = fitter(in, t);
    Matrix up;
    Matrix smooth;
    if (target.typeTwo()) {
        // K_{s, held} f at the training rows, f taken out of sample on the held rows, with one
        // width s for every candidate t.
        smooth = gaussianGram(trainP, heldP, width) *
                 (deltaNormalizer(width, dim) / static_cast<double>(heldP.rows()));
    } else {
        up = u.evaluate(heldP);
    }
    Vector out(Eigen::Index(grid.lambda.size()));
    for (size_t li = 0; li < grid.lambda.size(); ++li) {
        const FoldValues v = path(grid.lambda[li]);
        if (target.typeTwo()) {
            out(Eigen::Index(li)) = (smooth * v.held - trainQ).squaredNorm() / trainQ.squaredNorm();
        } else {
            out(Eigen::Index(li)) = jCriterion(up, v.held, uqMean);
        }
    }
    return out;
}

} // namespace

RatioGrid defaultRatioGrid(const MatrixRef& xp, bool typeTwo)
{
    RatioGrid g;
    g.t0 = meanNeighbourDistance(xp, 10);
    if (!(g.t0 > 0.0)) {
        throw ParameterError("t", "the p rows are all identical: no kernel width can be derived; "
                                  "give --t");
    }
    const int first = typeTwo ? -6 : 0;
    for (int j = first; j <= first + 9; ++j) {
        g.t.push_back(g.t0 * std::ldexp(1.0, j));
    }
    for (int e = 5; e <= 10; ++e) {
        g.lambda.push_back(std::pow(10.0, -e));
    }
    return g;
}

std::vector<int> foldAssignment(Eigen::Index rows, int folds, uint64_t seed)
{
    std::vector<size_t> order(static_cast<size_t>(rows));
    std::iota(order.begin(), order.end(), size_t(0));
    Rng rng(seed ^ 0x5f0a2d1c9b3e4f67ULL);
    rng.shuffle(order);
    std::vector<int> fold(static_cast<size_t>(rows));
    for (size_t i = 0; i < order.size(); ++i) {
        fold[order[i]] = static_cast<int>(i % static_cast<size_t>(folds));
    }
    return fold;
}

namespace {

/// What every fold's criterion at one t needs besides t.
struct FoldInputs
{
    const Matrix& xp;
    const RatioTarget& target;
    const std::vector<int>& fold;
    double width;
    double dim;
    const RatioGrid& grid;
    const TestFunctions& u;
    const Vector& uqMean;
    const FoldFitter& fitter;
};

/// The criterion of every fold at t over the lambda grid (a row per fold). The folds are
/// independent fits: one per thread (each decomposition is serial). `keepGoing` is asked
/// before each fold's decomposition, not only per t; false when it said stop.
bool foldRowsAt(const FoldInputs& in, int folds, double t, const std::function<bool()>& keepGoing,
                Matrix& rows)
{
    rows.resize(folds, Eigen::Index(in.grid.lambda.size()));
    ParallelFailure failure;
    std::atomic<bool> stop{false};
#pragma omp parallel
    {
        const FlushSubnormalsScope subnormalsFlushed;
#pragma omp for schedule(dynamic, 1)
        for (int k = 0; k < folds; ++k) {
            failure.run([&] {
                if (stop || !keepGoing()) {
                    stop = true;
                    return;
                }
                rows.row(k) = foldCriterion(in.xp, in.target, in.fold, k, t, in.width, in.dim,
                                            in.grid, in.u, in.uqMean, in.fitter)
                                  .transpose();
            });
        }
    }
    failure.rethrow();
    return !stop;
}

/// The grid point of the smallest finite criterion (counting the non-finite ones).
void pickBest(JSurface& s)
{
    double best = std::numeric_limits<double>::infinity();
    for (Eigen::Index a = 0; a < s.j.rows(); ++a) {
        for (Eigen::Index b = 0; b < s.j.cols(); ++b) {
            if (!std::isfinite(s.j(a, b))) {
                ++s.nonFinite;
            } else if (s.j(a, b) < best) {
                best = s.j(a, b);
                s.bestT = static_cast<int>(a);
                s.bestLambda = static_cast<int>(b);
            }
        }
    }
    if (s.bestT < 0) {
        throw NumericalError("every point of the (t, lambda) grid gave non-finite ratio values");
    }
}

} // namespace

JSurface tuneRatio(const Matrix& xp, const RatioTarget& target, const RatioGrid& grid,
                   const RatioTuningConfig& config, const FoldFitter& fitter,
                   const ProgressFn& progress)
{
    if (config.folds < 2) {
        throw ParameterError("folds", "must be at least 2");
    }
    if (config.folds > xp.rows()) {
        throw ParameterError("folds", std::to_string(config.folds) + " folds exceed the " +
                                          std::to_string(xp.rows()) + " rows of the p sample");
    }
    JSurface s;
    s.t = grid.t;
    s.lambda = grid.lambda;
    s.t0 = grid.t0;
    s.folds = config.folds;
    s.criterion = target.typeTwo() ? "residual" : "J";
    s.j = Matrix::Zero(Eigen::Index(grid.t.size()), Eigen::Index(grid.lambda.size()));
    const std::vector<int> fold = foldAssignment(xp.rows(), config.folds, config.seed);
    TestFunctions u;
    Vector uqMean;
    if (!target.typeTwo()) {
        Matrix pooled(xp.rows() + target.sample->rows(), xp.cols());
        pooled << xp, *target.sample;
        u = TestFunctions::draw(pooled, config.family, config.halfSpaces, config.seed);
        uqMean = u.evaluate(*target.sample).colwise().mean().transpose();
        s.testFunctions = static_cast<int>(u.count());
    }
    const double dim =
        target.intrinsicDim > 0.0 ? target.intrinsicDim : static_cast<double>(xp.cols());
    const double width = grid.t0 / 8.0;
    s.residualWidth = target.typeTwo() ? width : 0.0;
    const FoldInputs in{xp, target, fold, width, dim, grid, u, uqMean, fitter};
    const int total = static_cast<int>(grid.t.size());
    for (size_t ti = 0; ti < grid.t.size(); ++ti) {
        const auto keepGoing = [&] { return !progress || progress(static_cast<int>(ti), total); };
        Matrix rows;
        if (!keepGoing() || !foldRowsAt(in, config.folds, grid.t[ti], keepGoing, rows)) {
            s.cancelled = true;
            return s;
        }
        for (Eigen::Index li = 0; li < rows.cols(); ++li) {
            double& cell = s.j(Eigen::Index(ti), li);
            for (int k = 0; k < config.folds; ++k) {
                const double value = rows(k, li);
                cell = std::isfinite(value) && std::isfinite(cell)
                           ? cell + value / config.folds
                           : std::numeric_limits<double>::infinity();
            }
        }
    }
    pickBest(s);
    if (progress) {
        progress(total, total);
    }
    return s;
}

} // namespace sosrep
