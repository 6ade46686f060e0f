// SPDX-License-Identifier: MIT
// Log densities on a 2-D grid, normalization on the grid and highest-density levels.
#include "core/grid/density_grid.h"

#include "core/errors.h"
#include "core/grid/binned_grid.h"
#include "core/numerics/flushed_exp.h"
#include "core/util/float_mode.h"
#include "core/util/parallel_failure.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace sosrep {

GridSpec gridAroundData(const MatrixRef& data, int xColumn, int yColumn, int resolution,
                        double margin)
{
    if (xColumn < 0 || yColumn < 0 || xColumn >= data.cols() || yColumn >= data.cols()) {
        throw ParameterError("columns", "plotted column out of range");
    }
    GridSpec g;
    g.xColumn = xColumn;
    g.yColumn = yColumn;
    g.nx = g.ny = resolution;
    auto range = [&](int c, double* lo, double* hi) {
        const double a = data.col(c).minCoeff();
        const double b = data.col(c).maxCoeff();
        const double span = b > a ? b - a : 1.0;
        *lo = a - margin * span;
        *hi = b + margin * span;
    };
    range(xColumn, &g.xMin, &g.xMax);
    range(yColumn, &g.yMin, &g.yMax);
    g.fixedValues = columnMedians(data);
    return g;
}

Vector columnMedians(const MatrixRef& data)
{
    Vector m(data.cols());
    for (Eigen::Index c = 0; c < data.cols(); ++c) {
        std::vector<double> v(data.col(c).data(), data.col(c).data() + data.rows());
        auto mid = v.begin() + static_cast<long>(v.size() / 2);
        std::nth_element(v.begin(), mid, v.end());
        m(c) = *mid;
    }
    return m;
}

namespace {

/// Gaussian kernel on a two-column grid with the other columns fixed: the kernel factorizes,
/// k(x_i, g) = exp(-(g_x - x_i)^2/2l^2) exp(-(g_y - y_i)^2/2l^2) c_i, so the field on the whole
/// grid is one product (nx x N)(N x ny). Rows and columns carry their own log shift, so nothing
/// underflows where the density matters; cells whose value still underflows are floored (and
/// counted) by logFromField, as in the generic path.
void evaluateSeparable(const KernelFieldModel& model, const GridSpec& spec,
                       const ProgressFn& progress, DensityGrid* out)
{
    const Matrix& x = model.kernel()->train();
    const double l = model.kernel()->spec().lengthScale;
    const double inv2l2 = 1.0 / (2.0 * l * l);
    const Eigen::Index n = x.rows();
    Vector heldLog = Vector::Zero(n); // log c_i from the held columns
    for (Eigen::Index j = 0; j < x.cols(); ++j) {
        if (j != spec.xColumn && j != spec.yColumn) {
            heldLog -= (x.col(j).array() - spec.fixedValues(j)).square().matrix() * inv2l2;
        }
    }
    // One factor matrix per axis, each row shifted by its own maximum; the exponentials are
    // computed in parallel and the product is one (parallel) GEMM per chunk of grid columns.
    auto factors = [&](int count, int column, auto position, const Vector& extraLog,
                       const Vector* weights, Vector* shift) {
        Matrix e(n, count); // transposed: each grid line's factors are contiguous
        shift->resize(count);
        // Locals of this lambda: clang cannot name the enclosing function's from a lambda in
        // an OpenMP region of a generic lambda.
        const Matrix& rows = x;
        const double scale = inv2l2;
        ParallelFailure failure;
#pragma omp parallel
        {
            const FlushSubnormalsScope subnormalsFlushed;
#pragma omp for schedule(static)
            for (int r = 0; r < count; ++r) {
                failure.run([&] {
                    auto col = e.col(r).array();
                    col = -(rows.col(column).array() - position(r)).square() * scale +
                          extraLog.array();
                    (*shift)(r) = col.maxCoeff();
                    col = (col - (*shift)(r)).exp();
                    flushSubnormalEntries(col);
                    if (weights) {
                        col *= weights->array();
                    }
                });
            }
        }
        failure.rethrow();
        return e;
    };
    Vector sx;
    Vector sy;
    const Matrix ey = factors(
        spec.ny, spec.yColumn, [&](int j) { return spec.y(j); }, Vector::Zero(n), nullptr, &sy);
    const Matrix ex = factors(
        spec.nx, spec.xColumn, [&](int i) { return spec.x(i); }, heldLog, &model.weights(), &sx);
    const double offset = model.logOffset();
    const int chunk = 64; // progress and cancel between chunks
    for (int i0 = 0; i0 < spec.nx; i0 += chunk) {
        const int rows = std::min(chunk, spec.nx - i0);
        const Matrix f = ex.middleCols(i0, rows).transpose() * ey; // rows: x, columns: y
        for (int r = 0; r < rows; ++r) {
            for (int jy = 0; jy < spec.ny; ++jy) {
                out->logDensity(jy, i0 + r) =
                    model.logFromField(f(r, jy), sx(i0 + r) + sy(jy), offset, &out->floored);
            }
        }
        if (progress && !progress(i0 + rows, spec.nx)) {
            out->cancelled = true;
            return;
        }
    }
}

/// Random Fourier features on a two-column grid: with a_ti = 2 pi z_tx X_i and c_tj =
/// 2 pi (z_ty Y_j + sum over held columns z_tk v_k) + b_t, cos(a + c) = cos a cos c - sin a sin c,
/// so the field on the grid is two (nx x T)(T x ny) products, exact for the sampled kernel.
void evaluateFeatureGrid(const KernelFieldModel& model, const GridSpec& spec,
                         const ProgressFn& progress, DensityGrid* out)
{
    const KernelOperator& k = *model.kernel();
    const Matrix& z = k.frequencies();
    const Eigen::Index t = z.rows();
    const Vector v = k.featureWeights(model.weights());
    Vector held = k.phases();
    for (Eigen::Index j = 0; j < z.cols(); ++j) {
        if (j != spec.xColumn && j != spec.yColumn) {
            held += (2.0 * M_PI * spec.fixedValues(j)) * z.col(j);
        }
    }
    Matrix cosA(t, spec.nx);
    Matrix sinA(t, spec.nx);
    Matrix cosC(t, spec.ny);
    Matrix sinC(t, spec.ny);
    ParallelFailure failure;
#pragma omp parallel
    {
        const FlushSubnormalsScope subnormalsFlushed;
#pragma omp for schedule(static)
        for (int i = 0; i < spec.nx; ++i) {
            failure.run([&] {
                const Eigen::ArrayXd a = (2.0 * M_PI * spec.x(i)) * z.col(spec.xColumn).array();
                cosA.col(i) = (a.cos() * v.array()).matrix();
                sinA.col(i) = (a.sin() * v.array()).matrix();
            });
        }
    }
    failure.rethrow();
#pragma omp parallel
    {
        const FlushSubnormalsScope subnormalsFlushed;
#pragma omp for schedule(static)
        for (int j = 0; j < spec.ny; ++j) {
            failure.run([&] {
                const Eigen::ArrayXd c =
                    (2.0 * M_PI * spec.y(j)) * z.col(spec.yColumn).array() + held.array();
                cosC.col(j) = c.cos().matrix();
                sinC.col(j) = c.sin().matrix();
            });
        }
    }
    failure.rethrow();
    const double offset = model.logOffset();
    const int chunk = 64;
    for (int i0 = 0; i0 < spec.nx; i0 += chunk) {
        const int rows = std::min(chunk, spec.nx - i0);
        const Matrix f = cosA.middleCols(i0, rows).transpose() * cosC -
                         sinA.middleCols(i0, rows).transpose() * sinC;
        for (int r = 0; r < rows; ++r) {
            for (int jy = 0; jy < spec.ny; ++jy) {
                out->logDensity(jy, i0 + r) =
                    model.logFromField(f(r, jy), 0.0, offset, &out->floored);
            }
        }
        if (progress && !progress(i0 + rows, spec.nx)) {
            out->cancelled = true;
            return;
        }
    }
}

} // namespace

DensityGrid evaluateGrid(const FittedModel& fitted, const GridSpec& spec,
                         const ProgressFn& progress)
{
    const KernelFieldModel* field = fitted.kernelField();
    if (!field) {
        return evaluateGridPointwise(fitted, spec, progress);
    }
    const KernelFieldModel& model = *field;
    DensityGrid out;
    out.spec = spec;
    out.logDensity.resize(spec.ny, spec.nx);
    const KernelOperator& k = *model.kernel();
    const bool columnsOk =
        spec.xColumn != spec.yColumn && k.train().cols() == spec.fixedValues.size();
    // The fast paths sum the kernel field in the model's own units; the data's units are the
    // model's constant shift away (FittedModel::setDataUnits), as logValues() gives them.
    // A rank scaling's derivative changes from cell to cell (Scaler::logDerivative).
    const auto inDataUnits = [&fitted](DensityGrid g) {
        g.logDensity.array() += fitted.logUnitShift();
        if (const Scaler* units = fitted.rowUnits()) {
            const GridSpec& s = g.spec;
            double fixed = 0.0;
            for (Eigen::Index c = 0; c < s.fixedValues.size(); ++c) {
                if (c != s.xColumn && c != s.yColumn) {
                    fixed += units->logDerivative(c, s.fixedValues(c));
                }
            }
            for (int j = 0; j < s.ny; ++j) {
                const double dy = units->logDerivative(s.yColumn, s.y(j));
                for (int i = 0; i < s.nx; ++i) {
                    g.logDensity(j, i) += fixed + dy + units->logDerivative(s.xColumn, s.x(i));
                }
            }
        }
        return g;
    };
    if (columnsOk && k.spec().type == KernelType::Gaussian && k.backend() == KernelBackend::Dense) {
        evaluateSeparable(model, spec, progress, &out);
        return inDataUnits(std::move(out));
    }
    if (columnsOk && k.frequencies().rows() > 0) {
        evaluateFeatureGrid(model, spec, progress, &out);
        return inDataUnits(std::move(out));
    }
    if (columnsOk && evaluateBinnedRadial(model, spec, &out)) {
        return inDataUnits(std::move(out));
    }
    return evaluateGridPointwise(model, spec, progress);
}

double sliceLogValue(const FittedModel& model, const GridSpec& spec, double x, double y)
{
    Matrix point = spec.fixedValues.transpose();
    point(0, spec.xColumn) = x;
    point(0, spec.yColumn) = y;
    return model.logValues(point).values(0);
}

DensityGrid evaluateGridPointwise(const FittedModel& model, const GridSpec& spec,
                                  const ProgressFn& progress)
{
    DensityGrid out;
    out.spec = spec;
    out.logDensity.resize(spec.ny, spec.nx);
    const int chunkRows = std::max(1, 4096 / std::max(1, spec.nx));
    for (int j0 = 0; j0 < spec.ny; j0 += chunkRows) {
        const int rows = std::min(chunkRows, spec.ny - j0);
        Matrix pts(static_cast<Eigen::Index>(rows) * spec.nx, spec.fixedValues.size());
        for (int j = 0; j < rows; ++j) {
            for (int i = 0; i < spec.nx; ++i) {
                const Eigen::Index k = static_cast<Eigen::Index>(j) * spec.nx + i;
                pts.row(k) = spec.fixedValues.transpose();
                pts(k, spec.xColumn) = spec.x(i);
                pts(k, spec.yColumn) = spec.y(j0 + j);
            }
        }
        const LogDensity ld = model.logValues(pts);
        out.floored += ld.floored;
        for (int j = 0; j < rows; ++j) {
            out.logDensity.row(j0 + j) =
                ld.values.segment(static_cast<Eigen::Index>(j) * spec.nx, spec.nx).transpose();
        }
        if (progress && !progress(j0 + rows, spec.ny)) {
            out.cancelled = true;
            break;
        }
    }
    return out;
}

Matrix normalizeOnGrid(const Matrix& logDensity, double cellArea)
{
    const double m = logDensity.maxCoeff();
    const double logMass = m + std::log((logDensity.array() - m).exp().sum() * cellArea);
    return logDensity.array() - logMass;
}

std::vector<double> highestDensityLevels(const Matrix& logDensity,
                                         const std::vector<double>& masses,
                                         const Matrix* logCellArea)
{
    // Cells by decreasing density; each adds its mass, density times area.
    std::vector<Eigen::Index> order(size_t(logDensity.size()));
    std::iota(order.begin(), order.end(), Eigen::Index(0));
    const double* d = logDensity.data();
    std::sort(order.begin(), order.end(),
              [d](Eigen::Index a, Eigen::Index b) { return d[a] > d[b]; });
    std::vector<double> v(order.size());
    std::vector<double> logMass(order.size());
    for (size_t k = 0; k < order.size(); ++k) {
        v[k] = d[order[k]];
        logMass[k] = v[k] + (logCellArea ? logCellArea->data()[order[k]] : 0.0);
    }
    const double m = *std::max_element(logMass.begin(), logMass.end());
    std::vector<double> cumulative(v.size());
    double total = 0.0;
    for (size_t k = 0; k < v.size(); ++k) {
        total += std::exp(logMass[k] - m);
        cumulative[k] = total;
    }
    std::vector<double> levels;
    for (double mass : masses) {
        const double target = mass * total;
        const auto it = std::lower_bound(cumulative.begin(), cumulative.end(), target);
        const size_t k = std::min(static_cast<size_t>(it - cumulative.begin()), v.size() - 1);
        levels.push_back(v[k]);
    }
    return levels;
}

} // namespace sosrep
