// SPDX-License-Identifier: MIT
// The FIRE density-ratio estimator as a plug-in.
#include "core/estimators/fire/fire_estimator.h"

#include "core/errors.h"
#include "core/estimators/fire/fire_model.h"
#include "core/estimators/ratio_options.h"

#include <cmath>

namespace sosrep {
namespace {

/// Relative change over 8 Lanczos steps at which a fold's path is taken as converged: the J
/// values then agree with the exact path's to about 1e-11 (tst_fire), far below the
/// differences between grid points.
constexpr double kTuningKrylovTolerance = 1e-10;

OptionTable fireOptions()
{
    OptionTable t;
    t.push_back(choiceOption({"loss", "Loss", "FIRE", "L"}, {"l2p", "mixed", "rkhs", "cutoff"},
                             "l2p",
                             "l2p: the L2,p loss (Eq. 11); mixed: gamma L2,p + (1-gamma) L2,q "
                             "(Eq. 13, lambda I); rkhs: regularized KMM (Eq. 14); cutoff: "
                             "spectral cut-off keeping sigma^3 > lambda (Eq. 20)"));
    OptionSpec gamma = realOption({"gamma", "Mixing γ", "FIRE"}, "0.5", 0.0, false,
                                  "weight of L2,p in the mixed loss (the paper does not state "
                                  "its value)");
    gamma.maximum = 1.0;
    gamma.applies = [](const OptionValues& v, Eigen::Index) { return v.text("loss") == "mixed"; };
    gamma.appliesText = "only with --loss mixed";
    t.push_back(gamma);
    t.push_back(ratioTOption());
    t.push_back(ratioLambdaOption());
    for (const OptionSpec& s : ratioTuningOptions()) {
        t.push_back(s);
    }
    t.push_back(choiceOption({"form", "Form", "FIRE", "F"}, {"auto", "exact", "features"}, "auto",
                             "exact: the representer form (n^3); features: random Fourier "
                             "features (D^3 + n D^2); auto: exact up to " +
                                 std::to_string(kFireExactRows) + " p rows"));
    OptionSpec features = integerOption({"rff_features", "Random features D", "FIRE", "D"}, 500, 10,
                                        20000, "random Fourier features of the feature form",
                                        "the feature form decomposes a D x D matrix per t");
    features.applies = [](const OptionValues& v, Eigen::Index rows) {
        return v.text("form") == "features" || (v.text("form") == "auto" && rows > kFireExactRows);
    };
    features.appliesText = "only with the feature form (--form features, or auto above " +
                           std::to_string(kFireExactRows) + " p rows)";
    t.push_back(features);
    OptionSpec dim = realOption({"intrinsic_dim", "Intrinsic dimension", "FIRE"}, "auto", 0.0, true,
                                "Type II: the dimension of the delta kernel's normalizer (2 pi "
                                "t)^(-d/2); data on a manifold use its dimension (Lemma 10)",
                                {"auto"});
    t.push_back(dim);
    return t;
}

/// The FIRE problem's form, loss and random features from the options.
FireSetup setupOf(const FitInput& in)
{
    const OptionValues& v = in.options;
    FireSetup setup;
    setup.loss = fireLossFromString(v.text("loss"));
    setup.gamma = v.real("gamma");
    const std::string& form = v.text("form");
    setup.form = form == "features" || (form == "auto" && in.x.rows() > kFireExactRows)
                     ? FireForm::Features
                     : FireForm::Exact;
    setup.features = v.integer("rff_features");
    setup.seed = v.seed("seed");
    return setup;
}

/// What the tuning chose at the edge of its grid, or "" (the fit's note). Names only what was
/// tuned: with --t given its one-point "grid" has no edge to speak of, and a lambda at its edge
/// deserves the same word as a t.
std::string edgeNote(const JSurface& surface)
{
    const auto atEdge = [](int best, size_t size) {
        return size > 1 && (best == 0 || best + 1 == int(size));
    };
    std::vector<std::string> edges;
    if (atEdge(surface.bestT, surface.t.size())) {
        edges.push_back("t");
    }
    if (atEdge(surface.bestLambda, surface.lambda.size())) {
        edges.push_back("lambda");
    }
    if (edges.empty()) {
        return {};
    }
    const bool both = edges.size() == 2;
    return "the tuned " + (both ? std::string("t and lambda are") : edges[0] + " is") +
           " at the edge of " + (both ? "their grids" : "its grid") + "; give --" + edges[0] +
           (both ? " or --lambda" : "") + " to look beyond it";
}

class FireEstimator final : public Estimator
{
public:
    std::string name() const override { return "fire"; }
    std::string title() const override
    {
        return "FIRE: density ratio q/p by a regularized Fredholm equation (Que & Belkin)";
    }
    const OptionTable& options() const override
    {
        static const OptionTable table = fireOptions();
        return table;
    }
    Capabilities capabilities() const override { return ratioCapabilities(); }

    std::unique_ptr<FittedModel> fit(const FitInput& in, const FitControl& control) const override
    {
        checkRatioInput(in, true, "fire");
        const OptionValues& v = in.options;
        const FireSetup setup = setupOf(in);
        RatioTarget target;
        target.sample = in.second;
        target.values = in.secondValues;
        target.intrinsicDim = v.isChoice("intrinsic_dim") ? 0.0 : v.real("intrinsic_dim");
        if (target.typeTwo() && (setup.loss == FireLoss::Mixed || setup.loss == FireLoss::Rkhs)) {
            throw ParameterError("loss", toString(setup.loss) +
                                             " needs a sample of q (Type I); with q known as a "
                                             "function use l2p or cutoff (paper section 3.6)");
        }
        const Matrix xp = in.x;
        const bool tune = v.isChoice("t") || v.isChoice("lambda");
        double t = tune ? 0.0 : v.real("t");
        double lambda = tune ? 0.0 : v.real("lambda");
        if (!tune) {
            checkRatioT(t, xp);
        }
        std::optional<JSurface> surface;
        if (tune) {
            std::vector<double> lambdas;
            for (int e = 5; e <= 10; ++e) {
                lambdas.push_back(std::pow(10.0, -e));
            }
            const RatioGrid grid = ratioGridFrom(v, xp, lambdas, "lambda", target.typeTwo());
            // The fold fits only need the path at the grid's lambdas: a Lanczos basis serves
            // them (FireSetup::krylovTolerance), the final fit below is exact.
            FireSetup foldSetup = setup;
            foldSetup.krylovTolerance = kTuningKrylovTolerance;
            foldSetup.krylovLambdas = grid.lambda;
            const FoldFitter fitter = [&](const FoldInput& fold, double width) -> FoldPath {
                RatioTarget ft = target;
                ft.values = fold.trainQ;
                auto path = FireFit::build(fold.trainP, ft, width, foldSetup);
                auto held = std::make_shared<FireFit::Evaluator>(path->evaluator(fold.heldP));
                return [path, held](double l) { return FoldValues{held->at(l)}; };
            };
            surface = tuneRatio(xp, target, grid, ratioTuningFrom(v), fitter, control.progress);
            if (surface->cancelled) {
                return cancelledRatioFit("fire");
            }
            t = surface->t[size_t(surface->bestT)];
            lambda = surface->lambda[size_t(surface->bestLambda)];
        }
        auto model = std::make_unique<FireModel>(FireFit::build(xp, target, t, setup), lambda);
        FitReport report;
        report.fields = model->summary();
        if (surface) {
            addTuningFields(*surface, &report.fields);
            report.note = edgeNote(*surface);
            model->setSurface(std::move(*surface));
        }
        model->setReport(std::move(report));
        return model;
    }

    std::unique_ptr<FittedModel> load(const ParameterMap& parameters,
                                      const KernelSpec*) const override
    {
        return FireModel::load(parameters);
    }
};

} // namespace

std::unique_ptr<Estimator> makeFireEstimator()
{
    return std::make_unique<FireEstimator>();
}

} // namespace sosrep
