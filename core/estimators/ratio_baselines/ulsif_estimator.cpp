// SPDX-License-Identifier: MIT
// uLSIF density-ratio estimation (Kanamori et al.) with leave-one-out tuning.
#include "core/errors.h"
#include "core/estimators/ratio_baselines/ratio_baselines.h"
#include "core/estimators/ratio_model.h"
#include "core/estimators/ratio_options.h"
#include "core/random.h"
#include "core/ratio/ratio_gaussian.h"
#include "core/ratio/ulsif.h"

#include <cmath>
#include <limits>
#include <numeric>

namespace sosrep {
namespace {

OptionTable ulsifOptions()
{
    OptionTable t;
    t.push_back(ratioTOption());
    OptionSpec l =
        realOption({"lambda", "Regularization λ", "Ratio"}, "auto", 0.0, true,
                   "uLSIF's ridge weight; auto: leave-one-out over 10^-3..10^1", {"auto"});
    l.logScale = true;
    t.push_back(l);
    t.push_back(integerOption({"centres", "Kernel centres", "uLSIF", "B"}, 100, 1, 5000,
                              "basis functions centred on seeded random rows of q (uLSIF's "
                              "usual 100)",
                              "leave-one-out inverts a centres x centres matrix"));
    return t;
}

std::vector<Eigen::Index> shuffled(Eigen::Index n, uint64_t seed)
{
    std::vector<Eigen::Index> idx(static_cast<size_t>(n));
    std::iota(idx.begin(), idx.end(), Eigen::Index(0));
    Rng rng(seed);
    rng.shuffle(idx);
    return idx;
}

Matrix rowsOf(const MatrixRef& x, const std::vector<Eigen::Index>& idx, size_t count)
{
    Matrix out(static_cast<Eigen::Index>(count), x.cols());
    for (size_t i = 0; i < count; ++i) {
        out.row(static_cast<Eigen::Index>(i)) = x.row(idx[i]);
    }
    return out;
}

class UlsifEstimator final : public Estimator
{
public:
    std::string name() const override { return "ulsif"; }
    std::string title() const override
    {
        return "uLSIF: least-squares density ratio, leave-one-out tuned (Kanamori et al.)";
    }
    const OptionTable& options() const override
    {
        static const OptionTable table = ulsifOptions();
        return table;
    }
    Capabilities capabilities() const override { return ratioCapabilities(); }

    std::unique_ptr<FittedModel> fit(const FitInput& in, const FitControl& control) const override
    {
        checkRatioInput(in, false, "ulsif");
        const OptionValues& v = in.options;
        const Matrix& xq = *in.second;
        const uint64_t seed = v.seed("seed");
        // Rows in a seeded order: the leave-one-out pairs (x_l, x'_l) must not follow any
        // sorting of the files.
        const Matrix p = rowsOf(in.x, shuffled(in.x.rows(), seed), size_t(in.x.rows()));
        const std::vector<Eigen::Index> qOrder = shuffled(xq.rows(), seed + 1);
        const Matrix q = rowsOf(xq, qOrder, size_t(xq.rows()));
        const size_t b = std::min<size_t>(size_t(v.integer("centres")), size_t(xq.rows()));
        const Matrix centres = q.topRows(Eigen::Index(b));
        if (std::min(p.rows(), q.rows()) < 2) {
            throw ParameterError("q", "uLSIF's leave-one-out needs at least 2 rows of q");
        }
        std::vector<double> lambdas;
        for (int k = 0; k <= 8; ++k) {
            lambdas.push_back(std::pow(10.0, -3.0 + 0.5 * k));
        }
        const RatioGrid grid = ratioGridFrom(v, in.x, lambdas, "lambda");
        JSurface s;
        s.t = grid.t;
        s.lambda = grid.lambda;
        s.t0 = grid.t0;
        s.criterion = "uLSIF leave-one-out";
        s.j = Matrix::Constant(Eigen::Index(s.t.size()), Eigen::Index(s.lambda.size()),
                               std::numeric_limits<double>::infinity());
        double best = std::numeric_limits<double>::infinity();
        for (size_t ti = 0; ti < s.t.size(); ++ti) {
            if (control.progress && !control.progress(int(ti), int(s.t.size()))) {
                return cancelledRatioFit("ulsif");
            }
            const UlsifSystem sys{gaussianGram(p, centres, s.t[ti]),
                                  gaussianGram(q, centres, s.t[ti])};
            for (size_t li = 0; li < s.lambda.size(); ++li) {
                const double score =
                    s.lambda.size() * s.t.size() > 1 ? ulsifLeaveOneOut(sys, s.lambda[li]) : 0.0;
                if (!std::isfinite(score)) {
                    ++s.nonFinite;
                    continue;
                }
                s.j(Eigen::Index(ti), Eigen::Index(li)) = score;
                if (score < best) {
                    best = score;
                    s.bestT = int(ti);
                    s.bestLambda = int(li);
                }
            }
        }
        if (s.bestT < 0) {
            throw NumericalError("uLSIF: every (t, lambda) gave a non-finite leave-one-out score");
        }
        const double t = s.t[size_t(s.bestT)];
        const double lambda = s.lambda[size_t(s.bestLambda)];
        const UlsifSystem sys{gaussianGram(p, centres, t), gaussianGram(q, centres, t)};
        int clipped = 0;
        const Vector alpha = ulsifCoefficients(sys, lambda, &clipped);
        auto model = std::make_unique<KernelExpansionRatio>("ulsif", centres, alpha, t, lambda);
        FitReport report;
        report.fields = {{"t", t},
                         {"lambda", lambda},
                         {"centres", static_cast<long long>(b)},
                         {"coefficients_clipped_at_0", static_cast<long long>(clipped)}};
        if (s.t.size() * s.lambda.size() > 1) {
            report.fields.push_back({"tuning_criterion", s.criterion});
            report.fields.push_back({"tuning_best", s.best()});
            report.fields.push_back({"t0", s.t0});
            model->setSurface(std::move(s));
        }
        model->setReport(std::move(report));
        return model;
    }

    std::unique_ptr<FittedModel> load(const ParameterMap& parameters,
                                      const KernelSpec*) const override
    {
        return KernelExpansionRatio::load("ulsif", parameters);
    }
};

} // namespace

std::unique_ptr<Estimator> makeUlsifEstimator()
{
    return std::make_unique<UlsifEstimator>();
}

} // namespace sosrep
