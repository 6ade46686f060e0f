// SPDX-License-Identifier: MIT
// Density ratio as the quotient of two KDEs (TiKDE baseline).
#include "core/errors.h"
#include "core/estimators/ratio_baselines/ratio_baselines.h"
#include "core/estimators/ratio_model.h"
#include "core/estimators/ratio_options.h"
#include "core/ratio/ratio_gaussian.h"

#include <cmath>

namespace sosrep {
namespace {

/// KDE_q / max(KDE_p, threshold), the threshold relative to the mean of KDE_p at the p rows.
class TikdeModel final : public RatioModel
{
public:
    TikdeModel(Matrix p, Matrix q, double t, double relativeThreshold)
        : m_p(std::move(p)), m_q(std::move(q)), m_t(t), m_relative(relativeThreshold)
    {
        m_floor = m_relative * gaussianRowMeans(m_p, m_p, m_t).mean();
    }
    std::string estimator() const override { return "tikde"; }
    Vector ratio(const MatrixRef& y) const override
    {
        return gaussianRowMeans(y, m_q, m_t)
            .cwiseQuotient(gaussianRowMeans(y, m_p, m_t).cwiseMax(m_floor));
    }
    double t() const override { return m_t; }
    double lambda() const override { return m_relative; }
    void save(ParameterMap& out) const override
    {
        out.set("p_sample", m_p);
        out.set("q_sample", m_q);
        out.set("t", m_t);
        out.set("threshold", m_relative);
    }
    SummaryFields summary() const override
    {
        return {{"t", m_t}, {"threshold", m_relative}, {"threshold_absolute", m_floor}};
    }

private:
    Matrix m_p;
    Matrix m_q;
    double m_t;
    double m_relative;
    double m_floor = 0.0;
};

OptionTable tikdeOptions()
{
    OptionTable t;
    t.push_back(ratioTOption());
    OptionSpec th = realOption({"threshold", "Threshold τ", "TIKDE"}, "auto", 0.0, false,
                               "floor of KDE_p as a fraction of its mean at the p rows; auto "
                               "tunes it on 0.1, 0.03, 0.01, 0.003, 0.001, 0",
                               {"auto"});
    t.push_back(th);
    for (const OptionSpec& s : ratioTuningOptions()) {
        t.push_back(s);
    }
    return t;
}

class TikdeEstimator final : public Estimator
{
public:
    std::string name() const override { return "tikde"; }
    std::string title() const override
    {
        return "TIKDE: ratio of two KDEs with a thresholded denominator (the paper's baseline)";
    }
    const OptionTable& options() const override
    {
        static const OptionTable table = tikdeOptions();
        return table;
    }
    Capabilities capabilities() const override { return ratioCapabilities(); }

    std::unique_ptr<FittedModel> fit(const FitInput& in, const FitControl& control) const override
    {
        checkRatioInput(in, false, "tikde");
        const OptionValues& v = in.options;
        const Matrix xp = in.x;
        const Matrix& xq = *in.second;
        double t = v.isChoice("t") ? 0.0 : v.real("t");
        double threshold = v.isChoice("threshold") ? 0.0 : v.real("threshold");
        std::optional<JSurface> surface;
        if (v.isChoice("t") || v.isChoice("threshold")) {
            const RatioGrid grid =
                ratioGridFrom(v, xp, {0.1, 0.03, 0.01, 0.003, 0.001, 0.0}, "threshold");
            RatioTarget target;
            target.sample = &xq;
            const FoldFitter fitter = [&](const FoldInput& fold, double width) -> FoldPath {
                const Vector p = gaussianRowMeans(fold.heldP, fold.trainP, width);
                const Vector q = gaussianRowMeans(fold.heldP, xq, width);
                const double mean = gaussianRowMeans(fold.trainP, fold.trainP, width).mean();
                return [p, q, mean](double tau) {
                    FoldValues out;
                    out.held = q.cwiseQuotient(p.cwiseMax(tau * mean));
                    return out;
                };
            };
            surface = tuneRatio(xp, target, grid, ratioTuningFrom(v), fitter, control.progress);
            if (surface->cancelled) {
                return cancelledRatioFit("tikde");
            }
            t = surface->t[size_t(surface->bestT)];
            threshold = surface->lambda[size_t(surface->bestLambda)];
        }
        auto model = std::make_unique<TikdeModel>(xp, xq, t, threshold);
        FitReport report;
        report.fields = model->summary();
        if (surface) {
            addTuningFields(*surface, &report.fields);
            model->setSurface(std::move(*surface));
        }
        model->setReport(std::move(report));
        return model;
    }

    std::unique_ptr<FittedModel> load(const ParameterMap& p, const KernelSpec*) const override
    {
        const Matrix& a = p.matrix("p_sample");
        const Matrix& b = p.matrix("q_sample");
        const double t = p.number("t");
        const double th = p.number("threshold");
        if (a.rows() == 0 || b.rows() == 0 || a.cols() != b.cols()) {
            throw ParameterError("q_sample", "does not match p_sample (rows or columns)");
        }
        if (!(t > 0.0) || !std::isfinite(t)) {
            throw ParameterError("t", "must be a positive number");
        }
        if (!(th >= 0.0) || !std::isfinite(th)) {
            throw ParameterError("threshold", "must be a non-negative number");
        }
        return std::make_unique<TikdeModel>(a, b, t, th);
    }
};

} // namespace

std::unique_ptr<Estimator> makeTikdeEstimator()
{
    return std::make_unique<TikdeEstimator>();
}

} // namespace sosrep
