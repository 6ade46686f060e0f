// SPDX-License-Identifier: MIT
// The product's matrix and vector types and the progress callback.
#pragma once

#include <Eigen/Core>

#include <cstdint>
#include <functional>

namespace sosrep {

using Matrix = Eigen::MatrixXd; // rows are samples, columns are features
using Vector = Eigen::VectorXd;
using MatrixRef = Eigen::Ref<const Eigen::MatrixXd>;
using VectorRef = Eigen::Ref<const Eigen::VectorXd>;

/// Progress callback for iterative work: (done, total) -> false requests cancellation.
using ProgressFn = std::function<bool(int done, int total)>;

} // namespace sosrep
