// SPDX-License-Identifier: MIT
// What the comparison detectors share: their capabilities and the checks of their inputs.
#pragma once

#include "core/errors.h"
#include "core/estimators/estimator.h"

#include <cmath>
#include <string>

namespace sosrep::detectors {

inline Capabilities detectorCapabilities()
{
    Capabilities c;
    c.kind = DensityKind::Score;
    c.usesKernel = false;
    c.kernelBackends = false;
    return c;
}

/// Rows of y must have the model's columns (a model file read back may not match the data).
inline void checkColumns(const MatrixRef& y, Eigen::Index dim, const std::string& estimator)
{
    if (y.cols() != dim) {
        throw ParameterError("data", estimator + " was fitted on " + std::to_string(dim) +
                                         " columns, the data have " + std::to_string(y.cols()));
    }
}

inline Eigen::Index checkedCount(const ParameterMap& p, const std::string& key, double minimum)
{
    const double v = p.number(key);
    if (!(v >= minimum) || v > 1e9 || v != std::floor(v)) {
        throw ParameterError(key, "must be an integer >= " + std::to_string(int(minimum)));
    }
    return static_cast<Eigen::Index>(v);
}

} // namespace sosrep::detectors
