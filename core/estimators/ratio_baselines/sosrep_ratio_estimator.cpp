// SPDX-License-Identifier: MIT
// Density ratio as the quotient of two SOSREP fits (plug-in baseline).
#include "core/errors.h"
#include "core/estimators/common_options.h"
#include "core/estimators/ratio_baselines/ratio_baselines.h"
#include "core/estimators/ratio_model.h"
#include "core/estimators/registry.h"
#include "core/pipeline/fit_route.h"

#include <cmath>

namespace sosrep {
namespace {

constexpr const char* kSides[2] = {"p", "q"};

/// exp(log q - log p) of two normalized Gaussian SOSREP fits in the same coordinates.
class PluginRatioModel final : public RatioModel
{
public:
    PluginRatioModel(std::shared_ptr<const FittedModel> p, std::shared_ptr<const FittedModel> q,
                     FitSettings ps, FitSettings qs)
        : m_models{std::move(p), std::move(q)}, m_settings{std::move(ps), std::move(qs)}
    {
    }
    std::string estimator() const override { return "sosrep-ratio"; }
    Vector ratio(const MatrixRef& y) const override
    {
        const LogDensity lp = m_models[0]->logValues(y);
        const LogDensity lq = m_models[1]->logValues(y);
        // One std::exp per row: Eigen's array exp treats a vector's tail apart from its full
        // SIMD packets, so a row's bits would depend on the batch (row_blocks.h).
        Vector r(lp.values.size());
        for (Eigen::Index i = 0; i < r.size(); ++i) {
            r(i) = std::exp(lq.values(i) - lp.values(i));
        }
        return r;
    }
    void save(ParameterMap& out) const override
    {
        for (int s = 0; s < 2; ++s) {
            const std::string prefix = std::string(kSides[s]) + ".";
            ParameterMap sub;
            m_models[s]->save(sub);
            for (const auto& [key, value] : sub.entries()) {
                out.set(prefix + key, value);
            }
            for (const auto& [key, value] : m_settings[s].values.all()) {
                out.set(prefix + "option." + key, value);
            }
        }
    }
    SummaryFields summary() const override
    {
        SummaryFields f;
        for (int s = 0; s < 2; ++s) {
            f.push_back({std::string(kSides[s]) + "_length_scale",
                         m_settings[s].values.real("length_scale")});
        }
        return f;
    }

    static std::unique_ptr<PluginRatioModel> load(const ParameterMap& p)
    {
        std::shared_ptr<const FittedModel> models[2];
        FitSettings settings[2];
        const Estimator& sosrep = EstimatorRegistry::instance().get("sosrep");
        for (int s = 0; s < 2; ++s) {
            const std::string prefix = std::string(kSides[s]) + ".";
            const std::string optionPrefix = prefix + "option.";
            ParameterMap sub;
            settings[s] = FitSettings::defaults("sosrep");
            for (const auto& [key, value] : p.entries()) {
                if (key.rfind(optionPrefix, 0) == 0) {
                    const auto* text = std::get_if<std::string>(&value);
                    if (!text) {
                        throw ParameterError(key, "is not text");
                    }
                    settings[s].values.set(key.substr(optionPrefix.size()), *text);
                } else if (key.rfind(prefix, 0) == 0) {
                    sub.set(key.substr(prefix.size()), value);
                }
            }
            if (settings[s].values.isChoice("length_scale")) {
                throw ParameterError(optionPrefix + "length_scale", "is missing");
            }
            const KernelSpec kernel = kernelSpecFrom(settings[s].values);
            models[s] = sosrep.load(sub, &kernel);
        }
        return std::make_unique<PluginRatioModel>(models[0], models[1], settings[0], settings[1]);
    }

private:
    std::shared_ptr<const FittedModel> m_models[2];
    FitSettings m_settings[2];
};

class SosrepRatioEstimator final : public Estimator
{
public:
    std::string name() const override { return "sosrep-ratio"; }
    std::string title() const override
    {
        return "SOSREP plug-in ratio: two Gaussian SOSREP densities, q divided by p";
    }
    const OptionTable& options() const override
    {
        static const OptionTable none;
        return none;
    }
    Capabilities capabilities() const override { return ratioCapabilities(); }

    std::unique_ptr<FittedModel> fit(const FitInput& in, const FitControl& control) const override
    {
        checkRatioInput(in, false, "sosrep-ratio");
        std::shared_ptr<const FittedModel> models[2];
        FitSettings settings[2];
        const Matrix* samples[2] = {nullptr, in.second};
        const Matrix p = in.x;
        samples[0] = &p;
        for (int s = 0; s < 2; ++s) {
            FitSettings fs = FitSettings::defaults("sosrep");
            fs.values.set("kernel", "gaussian");
            fs.values.set("seed", in.options.text("seed"));
            FitData data;
            data.train = *samples[s];
            data.validation = Matrix(0, p.cols());
            data.source = kSides[s];
            FitObserver o;
            o.cancelled = [&]() { return control.progress && !control.progress(s, 2); };
            FitOutcome out = fitModel(data, fs, o);
            if (out.cancelled) {
                return cancelledRatioFit("sosrep-ratio");
            }
            checkUsable(*out.model);
            fs.fixLengthScale(out.lengthScale);
            models[s] = out.model;
            settings[s] = fs;
        }
        auto model =
            std::make_unique<PluginRatioModel>(models[0], models[1], settings[0], settings[1]);
        FitReport report;
        report.fields = model->summary();
        model->setReport(std::move(report));
        return model;
    }

    std::unique_ptr<FittedModel> load(const ParameterMap& parameters,
                                      const KernelSpec*) const override
    {
        return PluginRatioModel::load(parameters);
    }
};

} // namespace

std::unique_ptr<Estimator> makeSosrepRatioEstimator()
{
    return std::make_unique<SosrepRatioEstimator>();
}

} // namespace sosrep
