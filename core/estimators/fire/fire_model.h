// SPDX-License-Identifier: MIT
// A fitted FIRE ratio model (exact or Fourier features, along its lambda path), saved and loaded.
#pragma once

#include "core/estimators/ratio_model.h"
#include "core/ratio/fire_system.h"

#include <memory>

namespace sosrep {

/// A fitted FIRE ratio: f(x) = sum_i a_i g_t(x_i, x) (exact form, a = v / n) or phi(x)^T w
/// (feature form). Keeps the fit's path in memory so another lambda costs no refit.
class FireModel final : public RatioModel
{
public:
    /// From a path at one lambda.
    FireModel(std::shared_ptr<const FireFit> path, double lambda);
    /// From saved parameters (no path: atLambda() is null).
    static std::unique_ptr<FireModel> load(const ParameterMap& p);

    std::string estimator() const override { return "fire"; }
    Vector ratio(const MatrixRef& y) const override;
    std::unique_ptr<RatioModel> atLambda(double lambda) const override;
    bool hasPath() const override { return m_path != nullptr; }
    double lambda() const override { return m_lambda; }
    double t() const override { return m_t; }
    void save(ParameterMap& out) const override;
    SummaryFields summary() const override;

    FireLoss loss() const { return m_setup.loss; }
    FireForm form() const { return m_setup.form; }

private:
    FireModel() = default;
    std::shared_ptr<const FireFit> m_path;
    FireSetup m_setup;
    double m_t = 1.0;
    double m_lambda = 0.0;
    bool m_typeTwo = false;
    int m_cutoffRank = 0;
    Matrix m_support;           // exact
    FourierFeatures m_features; // features
    Vector m_coefficients;
};

} // namespace sosrep
