// SPDX-License-Identifier: MIT
// The seeded 2-D toy data (mixture, moons, rings, square, cosine, blocks, a ratio pair).
#pragma once

#include "core/data/dataset.h"

#include <cstdint>
#include <string>

namespace sosrep {

enum class ToyKind
{
    GaussianMixture, // three anisotropic Gaussian components
    TwoMoons,
    Rings,  // two concentric noisy circles
    Square, // uniform on the unit square (flat density, sharp edges)
    Cosine, // y = cos(x) + noise, a curved ridge
    Blocks, // two clusters of different spread: the paper's two-block situation
    /// Two samples for density ratios: label 0 rows from p = N(0, I), label 1 rows from q =
    /// N((0.5, 0), 0.6^2 I) (FIRE digest T10), half each; the label is the sample, not an
    /// anomaly flag, and no uniform anomalies are added.
    Shift
};

std::string toString(ToyKind kind);
ToyKind toyKindFromString(const std::string& text); // throws ParameterError("kind")

struct ToyConfig
{
    ToyKind kind = ToyKind::GaussianMixture;
    int n = 500;
    uint64_t seed = 0;
    double anomalyFraction = 0.0; // share of extra rows drawn uniformly around the data, label 1
};

/// A 2-D toy dataset with columns x, y and labels (0 = from the distribution, 1 = injected
/// uniform anomaly). Same config, same rows, on every platform.
Dataset generateToyData(const ToyConfig& config);

} // namespace sosrep
