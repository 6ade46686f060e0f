// SPDX-License-Identifier: MIT
// The ratio-model interface, and a kernel expansion ratio along a lambda path.
#pragma once

#include "core/estimators/estimator.h"
#include "core/ratio/ratio_tuning.h"

#include <memory>
#include <optional>

namespace sosrep {

/// A fitted density ratio f ~ q/p (FIRE, uLSIF, TIKDE, the plug-in of two SOSREP fits). Its
/// values may be negative (FIRE imposes no sign), so logValues floors them at 1e-300 and counts
/// each; ratio() gives them as they are.
class RatioModel : public FittedModel
{
public:
    DensityKind kind() const override { return DensityKind::Ratio; }
    LogDensity modelLogValues(const MatrixRef& y) const override;

    /// The estimated ratio at the rows of y.
    virtual Vector ratio(const MatrixRef& y) const = 0;

    /// The same fit at another lambda without refitting (FIRE's regularization path, digest
    /// 1.3); null when the model has no path (other estimators, or a model read from a file).
    virtual std::unique_ptr<RatioModel> atLambda(double /*lambda*/) const { return nullptr; }
    /// Whether atLambda() can move along a path (without computing one).
    virtual bool hasPath() const { return false; }
    /// The regularization parameter and kernel variance the model was fitted with (0: none).
    virtual double lambda() const { return 0.0; }
    virtual double t() const { return 0.0; }

    /// The tuning criterion over the grid, when the fit tuned (t, lambda).
    const std::optional<JSurface>& surface() const { return m_surface; }
    void setSurface(JSurface s) { m_surface = std::move(s); }

private:
    std::optional<JSurface> m_surface;
};

/// f(x) = sum_l a_l g_t(c_l, x) with the unit-peak Gaussian of variance t (uLSIF; FIRE's exact
/// form read back from a file has the same shape).
class KernelExpansionRatio : public RatioModel
{
public:
    KernelExpansionRatio(std::string estimator, Matrix centres, Vector coefficients, double t,
                         double lambda);
    std::string estimator() const override { return m_estimator; }
    Vector ratio(const MatrixRef& y) const override;
    void save(ParameterMap& out) const override;
    double lambda() const override { return m_lambda; }
    double t() const override { return m_t; }
    /// Reads what save() wrote (ParameterError naming a missing or mismatched field).
    static std::unique_ptr<KernelExpansionRatio> load(const std::string& estimator,
                                                      const ParameterMap& p);

private:
    std::string m_estimator;
    Matrix m_centres;
    Vector m_coefficients;
    double m_t;
    double m_lambda;
};

/// The paper's held-out error (section 6.3): J of Eq. 36 (means) on rows of p and q the model
/// never saw, with `count` freshly drawn test functions of `family` (plus the linear ones).
double heldOutJ(const RatioModel& model, const Matrix& pRows, const Matrix& qRows,
                TestFamily family, int count, uint64_t seed);

/// What every density-ratio estimator declares: a ratio, needs a second sample, no kernel options
/// of the density estimators (each has its own t).
Capabilities ratioCapabilities();

/// The model a cancelled ratio fit returns: empty, its report says Cancelled.
std::unique_ptr<FittedModel> cancelledRatioFit(const std::string& estimator);

/// Checks what a ratio fit was given: rows of p, and either a non-empty q sample with the same
/// columns or finite, non-negative q values, one per p row. Throws ParameterError("q").
void checkRatioInput(const FitInput& in, bool typeTwoAllowed, const std::string& estimator);

} // namespace sosrep
