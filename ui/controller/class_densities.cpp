// SPDX-License-Identifier: MIT
// Per-class densities (seaborn's hue=): one model per value of a column, on its own rows.
#include "ui/controller/class_densities.h"

#include "core/data/split.h"
#include "core/kernels/kernel_operator.h"
#include "core/util/text.h"
#include "ui/controller/fit_job.h"

#include <cmath>
#include <exception>
#include <map>

namespace sosrep::ui {

ClassDensities fitClassDensities(const Matrix& x, const Vector& hue, const std::string& column,
                                 const FitSettings& settings, double lengthScale,
                                 const Scaler& scaler, const GridSpec* grid, const CurveSpec* curve,
                                 const std::atomic<bool>& cancel,
                                 const std::vector<std::string>& levels, bool perClassLengthScale)
{
    ClassDensities out;
    out.column = column;
    std::map<double, std::vector<Eigen::Index>> groups;
    for (Eigen::Index i = 0; i < hue.size(); ++i) {
        if (std::isfinite(hue(i))) {
            groups[hue(i)].push_back(i);
        }
        if (int(groups.size()) > kMaxHueClasses) {
            out.error = column + " has more than " + std::to_string(kMaxHueClasses) +
                        " values: a hue column is a label or a group (choose another)";
            return out;
        }
    }
    if (groups.size() < 2) {
        out.error = column + " has one value: nothing to split by";
        return out;
    }
    FitObserver observer;
    observer.cancelled = [&cancel] { return cancel.load(); };
    const ProgressFn gridProgress = [&cancel](int, int) { return !cancel.load(); };
    for (const auto& [value, rows] : groups) {
        if (cancel.load()) {
            out.cancelled = true;
            return out;
        }
        const bool named = value >= 0.0 && value < double(levels.size());
        const std::string shown = named ? levels[size_t(value)] : numberText(value, 6);
        const std::string name = column + " = " + shown;
        if (rows.size() < 2) {
            out.skipped.push_back(name + " (one row)");
            continue;
        }
        ClassDensity c;
        c.value = value;
        c.name = shown;
        c.rows = Eigen::Index(rows.size());
        c.share = double(rows.size()) / double(x.rows());
        try {
            const std::shared_ptr<const FittedModel> model =
                fitAtLengthScale(rowsOf(x, rows), settings, settings.estimator,
                                 perClassLengthScale ? 0.0 : lengthScale, observer, scaler);
            if (!model) {
                out.cancelled = true;
                return out;
            }
            c.kind = model->kind();
            c.lengthScale = model->kernel() ? model->kernel()->spec().lengthScale : lengthScale;
            if (grid) {
                c.grid = evaluateGrid(*model, *grid, gridProgress);
                if (c.grid.cancelled) {
                    out.cancelled = true;
                    return out;
                }
            }
            if (curve) {
                c.curve = evaluateCurve(*model, *curve);
            }
        } catch (const std::exception& e) {
            out.skipped.push_back(name + " (" + e.what() + ")");
            continue;
        }
        out.classes.push_back(std::move(c));
    }
    if (out.classes.empty()) {
        out.error = "no class of " + column + " could be fitted";
    }
    return out;
}

} // namespace sosrep::ui
