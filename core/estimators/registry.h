// SPDX-License-Identifier: MIT
// The estimator registry: every plug-in by name and family.
#pragma once

#include "core/estimators/estimator.h"

#include <memory>
#include <string>
#include <vector>

namespace sosrep {

/// Every estimator the product offers, by name. The built-in ones (builtin_estimators.cpp) are
/// registered on first use; more can be added at run time (a test registers a toy estimator,
/// and every front end offers it from then on).
class EstimatorRegistry
{
public:
    static EstimatorRegistry& instance();

    /// Adds an estimator; a name already taken throws std::logic_error.
    void add(std::unique_ptr<Estimator> estimator);
    /// Removes an estimator (tests clean up after themselves); false if absent.
    bool remove(const std::string& name);

    /// The estimator of that name; throws ParameterError("estimator") listing the names.
    const Estimator& get(const std::string& name) const;
    const Estimator* find(const std::string& name) const;
    /// All estimators in registration order.
    std::vector<const Estimator*> all() const;
    std::vector<std::string> names() const;
    /// The density estimators (fit, score, the app's density views) or the density-ratio ones
    /// (`sosrep ratio`, the app's Ratio view), in registration order.
    std::vector<const Estimator*> family(bool ratios) const;
    std::vector<std::string> familyNames(bool ratios) const;
    /// get(), refusing an estimator of the other family with a message that names the
    /// command or view for it.
    const Estimator& getOf(bool ratios, const std::string& name) const;

private:
    EstimatorRegistry() = default;
    std::vector<std::unique_ptr<Estimator>> m_estimators;
};

/// Registers the estimators that ship with the product, one line each (builtin_estimators.cpp).
void registerBuiltinEstimators(EstimatorRegistry& registry);

} // namespace sosrep
