// SPDX-License-Identifier: MIT
// FIRE's J criterion with random test functions, for tuning t and lambda.
#include "core/ratio/j_criterion.h"

#include "core/errors.h"
#include "core/random.h"
#include "core/util/text.h"

namespace sosrep {

std::string toString(TestFamily family)
{
    switch (family) {
    case TestFamily::Both:
        return "both";
    case TestFamily::Linear:
        return "linear";
    case TestFamily::HalfSpaces:
        return "halfspaces";
    }
    return "both";
}

TestFamily testFamilyFromString(const std::string& text)
{
    for (TestFamily f : {TestFamily::Both, TestFamily::Linear, TestFamily::HalfSpaces}) {
        if (toString(f) == text) {
            return f;
        }
    }
    throw ParameterError("test_functions",
                         quotedText(text) + " is not one of both, linear, halfspaces");
}

TestFunctions TestFunctions::draw(const MatrixRef& pooled, TestFamily family, int halfSpaces,
                                  uint64_t seed)
{
    Rng rng(seed);
    const Eigen::Index d = pooled.cols();
    TestFunctions u;
    const Eigen::Index linear = family == TestFamily::HalfSpaces ? 0 : d;
    const Eigen::Index half = family == TestFamily::Linear ? 0 : halfSpaces;
    u.linear.resize(linear, d);
    for (Eigen::Index l = 0; l < linear; ++l) {
        for (Eigen::Index j = 0; j < d; ++j) {
            u.linear(l, j) = rng.normal();
        }
    }
    u.directions.resize(half, d);
    u.offsets.resize(half);
    for (Eigen::Index l = 0; l < half; ++l) {
        for (Eigen::Index j = 0; j < d; ++j) {
            u.directions(l, j) = rng.normal();
        }
        const Eigen::Index c = static_cast<Eigen::Index>(rng.below(uint64_t(pooled.rows())));
        u.offsets(l) = u.directions.row(l).dot(pooled.row(c));
    }
    return u;
}

Matrix TestFunctions::evaluate(const MatrixRef& x) const
{
    Matrix out(x.rows(), count());
    out.leftCols(linear.rows()) = x * linear.transpose();
    Matrix h = x * directions.transpose();
    h.rowwise() -= offsets.transpose();
    out.rightCols(directions.rows()) = (h.array() > 0.0).cast<double>().matrix();
    return out;
}

double jCriterion(const Matrix& up, const Vector& f, const Vector& uqMean)
{
    const Vector pSide = up.transpose() * f / static_cast<double>(f.size());
    return (pSide - uqMean).squaredNorm() / static_cast<double>(uqMean.size());
}

} // namespace sosrep
