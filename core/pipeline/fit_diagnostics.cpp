// SPDX-License-Identifier: MIT
// The fit route's warnings and refusals about a fit it keeps or refuses.
#include "core/pipeline/fit_diagnostics.h"

#include "core/errors.h"
#include "core/tuning/length_scale_rules.h"
#include "core/util/text.h"

#include <cmath>

namespace sosrep {

void diagnoseFit(const FittedModel& model, const Matrix& train, const KernelSpec* kernel,
                 const SearchResult* search, std::vector<std::string>& warnings)
{
    const FitReport& report = model.report();
    if (report.status == SolverStatus::MaxIterations && report.stalled) {
        warnings.push_back("the solver did not converge: " + report.note);
    } else if (report.status == SolverStatus::MaxIterations) {
        warnings.push_back("the solver stopped before converging" +
                           (report.note.empty() ? std::string(": its iteration budget ran out")
                                                : ": " + report.note) +
                           "; give more --iterations, or look at the trace");
    }
    warnings.insert(warnings.end(), report.warnings.begin(), report.warnings.end());
    if (report.clamped > 0) {
        warnings.push_back("the solver floored |f(x_i)| at 1e-12 " +
                           std::to_string(report.clamped) +
                           " times before taking logs and inverses");
    }
    if (kernel && train.rows() > 1) {
        const double spacing = search && search->spacing > 0.0
                                   ? search->spacing
                                   : medianNearestNeighbourDistance(train, 500, kernel->seed);
        warnDegenerateLengthScale(train, *kernel, spacing, warnings);
    }
    if (search) {
        warnAtGridEdge(*search, warnings);
    }
    if (const auto* ratio = dynamic_cast<const RatioModel*>(&model)) {
        checkRatioReach(*ratio, train, warnings);
    }
}

void warnDegenerateLengthScale(const Matrix& x, const KernelSpec& kernel, double spacing,
                               std::vector<std::string>& warnings)
{
    const double l = kernel.lengthScale;
    // Where the kernel between nearest neighbours falls below 1e-6: exp(-s^2 / 2l^2) for the
    // Gaussian, exp(-s / l) for Laplace (SDO decays like it).
    const double reach =
        kernel.type == KernelType::Gaussian ? std::sqrt(2.0 * std::log(1e6)) : std::log(1e6);
    if (spacing > reach * l) {
        warnings.push_back(
            "the length scale " + numberText(l, 4) + " is far below the rows' median " +
            "nearest-neighbour spacing " + numberText(spacing, 4) +
            ": the kernel between neighbours is below 1e-6, so each row sees only itself (the "
            "kernel matrix is nearly the identity) and scores measure the distance to the "
            "nearest row, not a density; give a larger --length-scale, or fewer columns");
        return;
    }
    const double diameter = (x.colwise().maxCoeff() - x.colwise().minCoeff()).norm();
    if (diameter > 0.0 && l > 10.0 * diameter) {
        warnings.push_back("the length scale " + numberText(l, 4) +
                           " is more than 10 times the data's diameter " + numberText(diameter, 4) +
                           ": the kernel is nearly flat over the rows, and the density with "
                           "it; give a smaller --length-scale");
    }
}

void checkRatioReach(const RatioModel& ratio, const Matrix& p, std::vector<std::string>& warnings)
{
    const double t = ratio.t();
    if (!(t > 0.0)) {
        return;
    }
    const Vector w = ratio.ratio(p);
    const double top = w.array().isFinite().all() ? w.cwiseAbs().maxCoeff() : 0.0;
    const double spacing = medianNearestNeighbourDistance(p, 500, 0);
    const std::string where = "the kernel variance t = " + numberText(t, 4) +
                              " (sqrt t = " + numberText(std::sqrt(t), 4) +
                              ") against the p rows' median " + "nearest-neighbour spacing " +
                              numberText(spacing, 4);
    if (!(top > 1e-250)) {
        throw ParameterError("t", "every weight underflows (largest |w| " + numberText(top, 3) +
                                      "): " + where + "; give a larger t, or t=auto");
    }
    if (spacing * spacing / (2.0 * t) > std::log(1e6)) {
        warnings.push_back(where + ": the kernel between neighbours is below 1e-6, so the "
                                   "weights rest on a few rows each; give a larger --t");
    }
}

void warnAtGridEdge(const SearchResult& r, std::vector<std::string>& warnings)
{
    if (r.curve.size() < 3 || r.selection.memberScales.size() > 1) {
        return;
    }
    const double l = r.selectedLengthScale();
    const bool low = l <= r.curve.front().lengthScale;
    const bool high = l >= r.curve.back().lengthScale;
    if (low || high) {
        warnings.push_back("the tuned length scale " + numberText(l, 4) + " is the " +
                           (low ? "smallest" : "largest") +
                           " of the grid searched: the Fisher-divergence curve may keep "
                           "falling beyond it; look at the curve, or give --length-scale");
    }
}

} // namespace sosrep
