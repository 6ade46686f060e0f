// SPDX-License-Identifier: MIT
// The option tables of ratio estimators: t and lambda grids and their tuning.
#include "core/estimators/ratio_options.h"

#include "core/errors.h"
#include "core/kernels/kernel.h"
#include "core/util/text.h"

#include <cmath>

namespace sosrep {

OptionSpec ratioTOption()
{
    OptionSpec t = realOption({"t", "Kernel variance t", "Ratio"}, "auto", 0.0, true,
                              "variance of the Gaussian kernel (sigma^2 in the scaled "
                              "coordinates); auto tunes it on t0 2^j, j = 0..9 (Type II: "
                              "-6..3), t0 the mean 10-NN distance",
                              {"auto"});
    t.logScale = true;
    return t;
}

OptionSpec ratioLambdaOption()
{
    OptionSpec l = realOption({"lambda", "Regularization λ", "Ratio"}, "auto", 0.0, true,
                              "Tikhonov weight for the unit-peak kernel (the normalized kernel's "
                              "lambda is this times c^3, c = (2 pi t)^(-d/2)); auto tunes it "
                              "on 1e-5..1e-10",
                              {"auto"});
    l.logScale = true;
    return l;
}

OptionTable ratioTuningOptions()
{
    OptionTable t;
    t.push_back(integerOption({"folds", "Folds", "Ratio tuning", "K"}, 5, 2, 1000,
                              "k-fold split of the p sample for tuning (each fold fits on the "
                              "others and all of q)"));
    t.push_back(choiceOption({"test_functions", "Test functions", "Ratio tuning", "F"},
                             {"both", "linear", "halfspaces"}, "both",
                             "the J criterion's test functions: random linear (at most d) and/or "
                             "random affine half-spaces"));
    t.push_back(integerOption({"half_spaces", "Half-spaces", "Ratio tuning", "N"}, 200, 1, 100000,
                              "random half-spaces of the J criterion"));
    return t;
}

RatioTuningConfig ratioTuningFrom(const OptionValues& v)
{
    RatioTuningConfig c;
    c.folds = v.integer("folds");
    c.family = testFamilyFromString(v.text("test_functions"));
    c.halfSpaces = v.integer("half_spaces");
    c.seed = v.seed("seed");
    return c;
}

void checkRatioT(double t, const MatrixRef& xp)
{
    // The kernel's length scale is sqrt(t): below 1e-8 x the rows' diameter every kernel
    // value between distinct rows underflows and the "ratio" is a few tiny weights with an
    // ESS of 0 (issue 23, --t 1e-300). fit refuses such a length scale; so does ratio.
    const double diameter = boundingDiameter(xp);
    const double floor = KernelSpec::kMinRelativeLengthScale * diameter;
    if (!(std::sqrt(t) >= floor)) {
        throw ParameterError("t", numberText(t, 6) +
                                      " gives a kernel width sqrt(t) below 1e-8 x the p rows' "
                                      "diameter (" +
                                      numberText(diameter, 6) +
                                      "): kernel values between distinct rows underflow to 0; "
                                      "use at least " +
                                      numberText(floor * floor, 3));
    }
}

RatioGrid ratioGridFrom(const OptionValues& v, const MatrixRef& xp,
                        const std::vector<double>& lambdas, const std::string& lambdaName,
                        bool typeTwo)
{
    RatioGrid g;
    if (v.isChoice("t")) {
        g = defaultRatioGrid(xp, typeTwo);
    } else {
        const double t = v.real("t");
        checkRatioT(t, xp);
        g.t = {t};
        g.t0 = t;
    }
    if (v.isChoice(lambdaName)) {
        g.lambda = lambdas;
    } else {
        g.lambda = {v.real(lambdaName)};
    }
    return g;
}

void addTuningFields(const JSurface& s, SummaryFields* fields)
{
    fields->push_back({"tuning_criterion", s.criterion});
    fields->push_back({"tuning_folds", static_cast<long long>(s.folds)});
    if (s.testFunctions > 0) {
        fields->push_back({"tuning_test_functions", static_cast<long long>(s.testFunctions)});
    }
    fields->push_back({"tuning_grid", std::to_string(s.t.size()) + " t x " +
                                          std::to_string(s.lambda.size()) + " values"});
    fields->push_back({"t0", s.t0});
    fields->push_back({"tuning_best", s.best()});
    if (s.nonFinite > 0) {
        fields->push_back({"tuning_non_finite_points", static_cast<long long>(s.nonFinite)});
    }
}

} // namespace sosrep
