// SPDX-License-Identifier: MIT
// The pair plot's panels (seaborn's pairplot), computed one at a time on a worker.
#include "ui/controller/pair_plot_job.h"

#include <algorithm>
#include <cmath>
#include <tuple>
#include <utility>
#include <vector>

namespace sosrep {

namespace {

/// The column's 1-99 % quantile range widened by 15 % each side: a few far rows (shuttle's
/// columns reach 100x their bulk) would leave the mass a dot in a dark square.
std::pair<double, double> bulkRange(const MatrixRef& x, int column)
{
    std::vector<double> v(size_t(x.rows()));
    for (Eigen::Index i = 0; i < x.rows(); ++i) {
        v[size_t(i)] = x(i, column);
    }
    std::sort(v.begin(), v.end());
    const double lo = v[size_t(0.01 * double(v.size() - 1))];
    const double hi = v[size_t(0.99 * double(v.size() - 1))];
    const double span = hi > lo ? hi - lo : std::max(1e-9, std::abs(hi));
    return {lo - 0.15 * span, hi + 0.15 * span};
}

} // namespace

bool computePairPanels(const FittedModel& model, const Matrix& x, int columns, int resolution,
                       const std::function<void(PairPanel)>& panel, const std::atomic<bool>& cancel,
                       int skip)
{
    int index = 0; // the panel's place in the order
    const int d = std::min<int>(columns, int(x.cols()));
    const ProgressFn stop = [&cancel](int, int) { return !cancel.load(); };
    const bool closedForm = marginalUnavailableReason(model).empty();
    for (int r = 1; r < d; ++r) {
        for (int c = 0; c < r; ++c) {
            if (cancel.load()) {
                return false;
            }
            if (index++ < skip) {
                continue;
            }
            PairPanel p;
            p.row = r;
            p.column = c;
            GridSpec spec = gridAroundData(x, c, r, resolution);
            std::tie(spec.xMin, spec.xMax) = bulkRange(x, c);
            std::tie(spec.yMin, spec.yMax) = bulkRange(x, r);
            p.grid = evaluateGrid(model, spec, stop);
            if (p.grid.cancelled) {
                return false;
            }
            panel(std::move(p));
        }
    }
    for (int c = 0; c < d; ++c) {
        if (cancel.load()) {
            return false;
        }
        if (index++ < skip) {
            continue;
        }
        PairPanel p;
        p.row = p.column = c;
        CurveSpec spec = curveAroundData(x, c, 128);
        std::tie(spec.min, spec.max) = bulkRange(x, c);
        p.curve = closedForm ? marginalCurve(model, spec, stop) : evaluateCurve(model, spec);
        if (p.curve.cancelled) {
            return false;
        }
        panel(std::move(p));
    }
    return true;
}

} // namespace sosrep
