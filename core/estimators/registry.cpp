// SPDX-License-Identifier: MIT
// The estimator registry: every plug-in by name and family.
#include "core/estimators/registry.h"

#include "core/errors.h"
#include "core/util/text.h"

#include <stdexcept>

namespace sosrep {

EstimatorRegistry& EstimatorRegistry::instance()
{
    static EstimatorRegistry* registry = [] {
        auto* r = new EstimatorRegistry;
        registerBuiltinEstimators(*r);
        return r;
    }();
    return *registry;
}

void EstimatorRegistry::add(std::unique_ptr<Estimator> estimator)
{
    if (find(estimator->name())) {
        throw std::logic_error("estimator '" + estimator->name() + "' is already registered");
    }
    m_estimators.push_back(std::move(estimator));
}

bool EstimatorRegistry::remove(const std::string& name)
{
    for (auto it = m_estimators.begin(); it != m_estimators.end(); ++it) {
        if ((*it)->name() == name) {
            m_estimators.erase(it);
            return true;
        }
    }
    return false;
}

const Estimator* EstimatorRegistry::find(const std::string& name) const
{
    for (const auto& e : m_estimators) {
        if (e->name() == name) {
            return e.get();
        }
    }
    return nullptr;
}

const Estimator& EstimatorRegistry::get(const std::string& name) const
{
    if (const Estimator* e = find(name)) {
        return *e;
    }
    std::string known;
    for (const std::string& n : names()) {
        known += (known.empty() ? "" : ", ") + n;
    }
    throw ParameterError("estimator",
                         "unknown estimator " + quotedText(name) + " (use " + known + ")");
}

std::vector<const Estimator*> EstimatorRegistry::all() const
{
    std::vector<const Estimator*> out;
    for (const auto& e : m_estimators) {
        out.push_back(e.get());
    }
    return out;
}

std::vector<std::string> EstimatorRegistry::names() const
{
    std::vector<std::string> out;
    for (const auto& e : m_estimators) {
        out.push_back(e->name());
    }
    return out;
}

std::vector<const Estimator*> EstimatorRegistry::family(bool ratios) const
{
    std::vector<const Estimator*> out;
    for (const auto& e : m_estimators) {
        if ((e->capabilities().kind == DensityKind::Ratio) == ratios) {
            out.push_back(e.get());
        }
    }
    return out;
}

std::vector<std::string> EstimatorRegistry::familyNames(bool ratios) const
{
    std::vector<std::string> out;
    for (const Estimator* e : family(ratios)) {
        out.push_back(e->name());
    }
    return out;
}

const Estimator& EstimatorRegistry::getOf(bool ratios, const std::string& name) const
{
    const Estimator& e = get(name);
    if ((e.capabilities().kind == DensityKind::Ratio) != ratios) {
        std::string known;
        for (const std::string& n : familyNames(ratios)) {
            known += (known.empty() ? "" : ", ") + n;
        }
        throw ParameterError("estimator", quotedText(name) +
                                              (ratios ? " estimates a density, not a density "
                                                        "ratio (use "
                                                      : " estimates a density ratio: use `sosrep "
                                                        "ratio` for it (here use ") +
                                              known + ")");
    }
    return e;
}

} // namespace sosrep
