// SPDX-License-Identifier: MIT
// Toy data and estimator setups shared by the fit tests.
#pragma once

#include "core/data/toy_data.h"
#include "core/estimators/common_options.h"
#include "core/estimators/fit_settings.h"
#include "core/estimators/registry.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

/// A registered estimator with its options (defaults, then `overrides`) and the kernel they
/// describe, ready to fit directly or to hand to a LengthScaleSearch.
struct EstimatorSetup
{
    const sosrep::Estimator* estimator = nullptr;
    sosrep::OptionValues options;
    sosrep::KernelSpec kernel;
};

using OptionOverrides = std::vector<std::pair<std::string, std::string>>;

inline EstimatorSetup estimatorSetup(const std::string& name, const OptionOverrides& overrides = {})
{
    sosrep::FitSettings s = sosrep::FitSettings::defaults(name);
    for (const auto& [option, value] : overrides) {
        s.values.set(option, value);
    }
    EstimatorSetup e;
    e.estimator = &sosrep::EstimatorRegistry::instance().get(name);
    e.options = s.values;
    if (e.estimator->capabilities().usesKernel) {
        e.kernel = sosrep::kernelSpecFrom(s.values);
    }
    return e;
}

/// Fits `name` on x at a fixed length scale.
inline std::unique_ptr<sosrep::FittedModel> fitAt(const std::string& name, const sosrep::Matrix& x,
                                                  double lengthScale,
                                                  const OptionOverrides& overrides = {},
                                                  const sosrep::FitControl& control = {})
{
    EstimatorSetup e = estimatorSetup(name, overrides);
    e.kernel.lengthScale = lengthScale;
    return e.estimator->fit(sosrep::FitInput{x, nullptr, e.kernel, e.options}, control);
}

/// The feature rows of a seeded toy set with a share of uniform anomalies.
inline sosrep::Matrix toyWithAnomalies(sosrep::ToyKind kind, int n, uint64_t seed, double fraction)
{
    sosrep::ToyConfig c;
    c.kind = kind;
    c.n = n;
    c.seed = seed;
    c.anomalyFraction = fraction;
    return sosrep::generateToyData(c).x;
}

/// The feature rows of a seeded toy set (no injected anomalies).
inline sosrep::Matrix toy(sosrep::ToyKind kind, int n, uint64_t seed)
{
    sosrep::ToyConfig c;
    c.kind = kind;
    c.n = n;
    c.seed = seed;
    return sosrep::generateToyData(c).x;
}
