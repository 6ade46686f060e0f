// SPDX-License-Identifier: MIT
// The paper's negativity experiment: how often f <= 0 on the data, over seeded runs.
#include "core/experiments/negativity.h"

#include "core/data/split.h"
#include "core/errors.h"
#include "core/estimators/sosrep/gradient_solver.h"
#include "core/kernels/kernel_operator.h"
#include "core/tuning/length_scale_rules.h"

#include <algorithm>
#include <cmath>
#include <functional>

namespace sosrep {
namespace {

constexpr double kClampFloor = 1e-12;         // GradientConfig's default floor
constexpr double kDivergedSquaredNorm = 1e12; // GradientSolver's divergence threshold

/// The runs of one method: coefficient columns, their kernel products, and where each stopped.
struct Runs
{
    Matrix alpha;
    Matrix u; // K alpha
    std::vector<int> divergedAt;
    Matrix* shares = nullptr;
};

/// Records iteration t of every column: the negative share (carried forward after divergence)
/// and GradientSolver's divergence test; a diverged column is zeroed so it stays finite.
void record(Runs& r, int t, long* clamped)
{
    const double n = static_cast<double>(r.u.rows());
    for (Eigen::Index j = 0; j < r.u.cols(); ++j) {
        if (r.divergedAt[j] >= 0) {
            (*r.shares)(t, j) = (*r.shares)(t - 1, j);
            continue;
        }
        const auto a = r.alpha.col(j);
        const auto u = r.u.col(j);
        const double sqNorm = a.dot(u);
        if (!std::isfinite(sqNorm) || sqNorm > kDivergedSquaredNorm || !a.allFinite() ||
            !u.allFinite()) {
            r.divergedAt[j] = t;
            (*r.shares)(t, j) = t > 0 ? (*r.shares)(t - 1, j) : 0.0;
            r.alpha.col(j).setZero();
            r.u.col(j).setZero();
            continue;
        }
        (*r.shares)(t, j) = static_cast<double>((u.array() < 0.0).count()) / n;
        *clamped += (u.array().abs() < kClampFloor).count();
    }
}

/// 1 / u elementwise with |u| floored at kClampFloor, sign kept (flooredInverse() per column).
Matrix flooredInverse(const Matrix& u)
{
    return u.unaryExpr([](double v) {
        if (std::abs(v) < kClampFloor) {
            v = v < 0.0 ? -kClampFloor : kClampFloor;
        }
        return 1.0 / v;
    });
}

} // namespace

void NegativitySettings::validate() const
{
    if (!(lengthScale >= 0.0) || !std::isfinite(lengthScale)) {
        throw ParameterError("length_scale", "must be a positive number (0 = from the data)");
    }
    if (lengthScale == 0.0 && (!(lengthScaleFactor > 0.0) || !std::isfinite(lengthScaleFactor))) {
        throw ParameterError("length_scale_factor", "must be a positive number");
    }
    if (!(learningRate > 0.0) || !std::isfinite(learningRate)) {
        throw ParameterError("learning_rate", "must be a positive finite number");
    }
    if (iterations < 1 || iterations > 1000000) {
        throw ParameterError("iterations", "must be between 1 and 1000000");
    }
    if (initializations < 1 || initializations > 10000) {
        throw ParameterError("initializations", "must be between 1 and 10000");
    }
    if (worst < 1 || worst > initializations) {
        throw ParameterError("worst", "must be between 1 and the number of initializations");
    }
    if (maxRows < 2) {
        throw ParameterError("max_rows", "must be at least 2");
    }
}

Vector NegativityRun::worstMean(const Matrix& shares, int worst)
{
    Vector out(shares.rows());
    const int k = std::min<int>(worst, static_cast<int>(shares.cols()));
    std::vector<double> row(shares.cols());
    for (Eigen::Index t = 0; t < shares.rows(); ++t) {
        for (Eigen::Index j = 0; j < shares.cols(); ++j) {
            row[j] = shares(t, j);
        }
        std::partial_sort(row.begin(), row.begin() + k, row.end(), std::greater<double>());
        double sum = 0.0;
        for (int i = 0; i < k; ++i) {
            sum += row[i];
        }
        out(t) = k > 0 ? sum / k : 0.0;
    }
    return out;
}

int NegativityRun::divergedCount(const std::vector<int>& at)
{
    return static_cast<int>(std::count_if(at.begin(), at.end(), [](int t) { return t >= 0; }));
}

NegativityRun runNegativity(const MatrixRef& xAll, const std::string& name,
                            const NegativitySettings& settings, const NegativityProgress& progress)
{
    settings.validate();
    Matrix x = xAll;
    if (x.rows() > settings.maxRows) {
        const auto keep = subsampleRows(x.rows(), settings.maxRows, settings.seed);
        Matrix sub(static_cast<Eigen::Index>(keep.size()), x.cols());
        for (size_t i = 0; i < keep.size(); ++i) {
            sub.row(static_cast<Eigen::Index>(i)) = x.row(keep[i]);
        }
        x = std::move(sub);
    }
    if (x.rows() < 2) {
        throw ParameterError("data", "needs at least 2 rows");
    }
    KernelSpec spec;
    spec.type = settings.kernel;
    spec.lengthScale = settings.lengthScale > 0.0
                           ? settings.lengthScale
                           : settings.lengthScaleFactor * medianPairwiseDistance(x);
    spec.features = settings.features;
    spec.seed = settings.seed;
    spec.validate(static_cast<int>(x.cols()));
    const KernelOperator op(x, spec);

    NegativityRun out;
    out.name = name;
    out.rows = x.rows();
    out.lengthScale = spec.lengthScale;
    out.backend = op.backendName();
    const int m = settings.initializations;
    const int iters = settings.iterations;
    out.natural = Matrix::Zero(iters + 1, m);
    out.standard = Matrix::Zero(iters + 1, m);

    Runs nat{Matrix(x.rows(), m), Matrix(), std::vector<int>(m, -1), &out.natural};
    for (int j = 0; j < m; ++j) {
        nat.alpha.col(j) = initialAlpha(op, settings.seed + static_cast<uint64_t>(j));
    }
    Runs std_{nat.alpha, Matrix(), std::vector<int>(m, -1), &out.standard};
    Matrix both(x.rows(), 2 * m);
    auto multiplyBoth = [&] {
        both << nat.alpha, std_.alpha;
        const Matrix ku = op.applyMany(both);
        nat.u = ku.leftCols(m);
        std_.u = ku.rightCols(m);
    };
    multiplyBoth();
    record(nat, 0, &out.clamped);
    record(std_, 0, &out.clamped);

    const double n = static_cast<double>(x.rows());
    const double step = 2.0 * settings.learningRate;
    for (int t = 1; t <= iters; ++t) {
        // eq. 8: alpha <- alpha - 2 lr [alpha - (1/N) (K alpha)^-1]
        nat.alpha -= step * (nat.alpha - flooredInverse(nat.u) / n);
        // eq. 7: alpha <- alpha - 2 lr [K alpha - (1/N) K (K alpha)^-1]
        const Matrix kInv = op.applyMany(flooredInverse(std_.u));
        std_.alpha -= step * (std_.u - kInv / n);
        multiplyBoth();
        record(nat, t, &out.clamped);
        record(std_, t, &out.clamped);
        out.completedIterations = t;
        if (progress && !progress(t, iters)) {
            out.cancelled = true;
            out.natural.conservativeResize(t + 1, Eigen::NoChange);
            out.standard.conservativeResize(t + 1, Eigen::NoChange);
            break;
        }
    }
    out.naturalDivergedAt = nat.divergedAt;
    out.standardDivergedAt = std_.divergedAt;
    return out;
}

} // namespace sosrep
