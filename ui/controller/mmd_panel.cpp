// SPDX-License-Identifier: MIT
// The MMD readout of the app's model panel.
#include "ui/controller/mmd_panel.h"

#include "core/errors.h"
#include "core/random.h"
#include "ui/controller/fit_job.h"

#include <algorithm>
#include <numeric>

namespace sosrep::ui {
namespace {

/// A seeded 80/20 split of the rows: (fit part, held-out part).
std::pair<Matrix, Matrix> heldOutSplit(const Matrix& x, uint64_t seed)
{
    std::vector<Eigen::Index> idx(static_cast<size_t>(x.rows()));
    std::iota(idx.begin(), idx.end(), Eigen::Index(0));
    Rng rng(seed ^ 0x686f6c646f7574ULL);
    for (size_t i = idx.size(); i > 1; --i) {
        std::swap(idx[i - 1], idx[size_t(rng.uniform() * double(i))]);
    }
    const Eigen::Index held = std::max<Eigen::Index>(1, x.rows() / 5);
    Matrix fit(x.rows() - held, x.cols()), out(held, x.cols());
    for (Eigen::Index i = 0; i < x.rows(); ++i) {
        (i < held ? out.row(i) : fit.row(i - held)) = x.row(idx[size_t(i)]);
    }
    return {fit, out};
}

} // namespace

MmdReadout computeMmdReadout(const Matrix& x, const FitSettings& settings,
                             const std::vector<const FittedModel*>& models, double lengthScale,
                             const GridSpec* viewGrid, const FitObserver& observer, bool* cancelled)
{
    *cancelled = false;
    MmdReadout r;
    if (x.rows() < 10) {
        r.error = "MMD needs 10 rows or more (20 % are held out)";
        return r;
    }
    const uint64_t seed = settings.values.seed("seed");
    const auto [fitRows, heldRows] = heldOutSplit(x, seed);
    r.heldOutRows = static_cast<int>(heldRows.rows());
    r.trainingRows = static_cast<int>(x.rows());
    MmdOptions options;
    options.seed = seed;
    try {
        options.bandwidth = medianPairwiseDistance(x, seed);
    } catch (const ParameterError& e) {
        r.error = e.message();
        return r;
    }
    r.bandwidth = options.bandwidth;
    if (viewGrid && x.cols() == 2) {
        // The view's box; the spacing follows the length scale (mmd.h), at most 256 per axis
        // so that a large SOSREP model is evaluated at no more than 65536 points.
        options.grid.lo[0] = viewGrid->xMin;
        options.grid.hi[0] = viewGrid->xMax;
        options.grid.lo[1] = viewGrid->yMin;
        options.grid.hi[1] = viewGrid->yMax;
        options.grid.points = 256;
    }
    for (const FittedModel* model : models) {
        if (model->kind() == DensityKind::Ratio) {
            r.error = "'" + model->estimator() + "' is a density ratio: MMD compares densities";
            return r;
        }
        if (model->kind() == DensityKind::Score) {
            // A normality score (IForest, kNN) is no density: it has no MMD to the data.
            r.skipped.push_back(model->estimator());
            continue;
        }
        try {
            const auto refit =
                fitAtLengthScale(fitRows, settings, model->estimator(), lengthScale, observer);
            if (!refit || (observer.cancelled && observer.cancelled())) {
                *cancelled = true;
                return {};
            }
            MmdReadout::Entry e;
            e.estimator = model->estimator();
            e.heldOut =
                mmd(MmdMeasure::ofSample(heldRows), MmdMeasure::ofModel(*refit), x, options);
            e.training = mmd(MmdMeasure::ofSample(x), MmdMeasure::ofModel(*model), x, options);
            r.entries.push_back(e);
        } catch (const ParameterError& e) {
            r.error = model->estimator() + ": " + e.parameter() + ": " + e.message();
            return r;
        } catch (const std::exception& e) {
            r.error = model->estimator() + ": " + e.what();
            return r;
        }
    }
    return r;
}

} // namespace sosrep::ui
