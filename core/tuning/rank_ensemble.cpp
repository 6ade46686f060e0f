// SPDX-License-Identifier: MIT
// An ensemble of length scales whose anomaly scores are combined by rank.
#include "core/tuning/rank_ensemble.h"

#include "core/errors.h"
#include "core/estimators/parameter_map.h"
#include "core/kernels/kernel_operator.h"
#include "core/util/text.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numeric>

namespace sosrep {
namespace {

constexpr double kTieTolerance = 1e-10;
const std::string kScales = "ensemble.length_scales";
const std::string kAgreement = "ensemble.agreement";
const std::string kCombination = "ensemble.combination"; // 0 mean rank, 1 max anomaly rank

std::string memberPrefix(size_t m)
{
    return "member" + std::to_string(m) + ".";
}

double pearson(const Vector& a, const Vector& b)
{
    const Vector ca = a.array() - a.mean();
    const Vector cb = b.array() - b.mean();
    const double den = ca.norm() * cb.norm();
    return den > 0.0 ? ca.dot(cb) / den : 1.0;
}

} // namespace

Vector midRanks(const Vector& values)
{
    const Eigen::Index n = values.size();
    std::vector<Eigen::Index> order(static_cast<size_t>(n));
    std::iota(order.begin(), order.end(), Eigen::Index(0));
    std::sort(order.begin(), order.end(),
              [&](Eigen::Index a, Eigen::Index b) { return values(a) < values(b); });
    Vector r(n);
    for (Eigen::Index i = 0; i < n;) {
        Eigen::Index j = i;
        while (j + 1 < n && values(order[size_t(j + 1)]) == values(order[size_t(i)])) {
            ++j;
        }
        for (Eigen::Index k = i; k <= j; ++k) {
            r(order[size_t(k)]) = (0.5 * double(i + j) + 0.5) / double(n);
        }
        i = j + 1;
    }
    return r;
}

double spearman(const Vector& a, const Vector& b)
{
    return pearson(midRanks(a), midRanks(b));
}

double referenceRank(const Vector& ref, double x)
{
    const Eigen::Index n = ref.size();
    const double* begin = ref.data();
    const double* end = begin + n;
    // The mid-rank of the tie group of ref(i) (all reference values equal to it).
    auto midRank = [&](const double* at) {
        const double* lo = std::lower_bound(begin, end, *at);
        const double* hi = std::upper_bound(lo, end, *at);
        return (double(lo - begin) + 0.5 * double(hi - lo)) / double(n);
    };
    // A value within round-off of a reference value is that value: a reference row scored
    // again finds its own mid-rank exactly.
    const double tol = kTieTolerance * std::max(1.0, std::abs(x));
    const double* near = std::lower_bound(begin, end, x - tol);
    if (near != end && *near <= x + tol) {
        return midRank(near);
    }
    const double first = midRank(begin);
    const double last = midRank(end - 1);
    if (x < ref(0) || x > ref(n - 1)) {
        const Eigen::Index q1 = (n - 1) / 4;
        const Eigen::Index q3 = (3 * (n - 1)) / 4;
        const double spread = ref(q3) - ref(q1);
        const double s = spread > 0.0 ? spread : std::max(1.0, std::abs(ref(0)));
        return x < ref(0) ? first * std::exp(-(ref(0) - x) / s)
                          : 1.0 - (1.0 - last) * std::exp(-(x - ref(n - 1)) / s);
    }
    // Between two distinct reference values: linear between their mid-ranks.
    const double* above = std::upper_bound(begin, end, x);
    const double* below = above - 1;
    const double t = (x - *below) / (*above - *below);
    return midRank(below) + t * (midRank(above) - midRank(below));
}

RankEnsembleModel::RankEnsembleModel(std::vector<Member> members, double minAgreement,
                                     double meanAgreement, Combination combination)
    : m_members(std::move(members)), m_combination(combination), m_minAgreement(minAgreement),
      m_meanAgreement(meanAgreement)
{
}

std::unique_ptr<RankEnsembleModel> RankEnsembleModel::build(
    const std::vector<std::pair<double, std::shared_ptr<const FittedModel>>>& members,
    const MatrixRef& referenceRows, Combination combination)
{
    if (members.empty() || referenceRows.rows() < 1) {
        throw ParameterError("selection", "an ensemble needs members and reference rows");
    }
    std::vector<Member> out;
    std::vector<Vector> ranks;
    for (const auto& [l, model] : members) {
        Member m{l, model, model->logValues(referenceRows).values};
        if (!m.reference.allFinite()) {
            throw NumericalError("an ensemble member (l = " + std::to_string(l) +
                                 ") gives non-finite values at reference rows");
        }
        ranks.push_back(midRanks(m.reference));
        std::sort(m.reference.data(), m.reference.data() + m.reference.size());
        out.push_back(std::move(m));
    }
    double lowest = 1.0, total = 0.0;
    int pairs = 0;
    for (size_t a = 0; a < ranks.size(); ++a) {
        for (size_t b = a + 1; b < ranks.size(); ++b) {
            const double rho = pearson(ranks[a], ranks[b]); // Spearman: Pearson of the ranks
            lowest = std::min(lowest, rho);
            total += rho;
            ++pairs;
        }
    }
    return std::unique_ptr<RankEnsembleModel>(
        new RankEnsembleModel(std::move(out), lowest, pairs ? total / pairs : 1.0, combination));
}

LogDensity RankEnsembleModel::modelLogValues(const MatrixRef& y) const
{
    const bool max = m_combination == Combination::MaxRank;
    LogDensity out{Vector::Constant(y.rows(), max ? 1.0 : 0.0), 0};
    for (const Member& m : m_members) {
        const LogDensity v = m.model->logValues(y);
        out.floored += v.floored;
        for (Eigen::Index i = 0; i < y.rows(); ++i) {
            const double r = referenceRank(m.reference, v.values(i));
            out.values(i) = max ? std::min(out.values(i), r) : out.values(i) + r;
        }
    }
    if (!max) {
        out.values /= double(m_members.size());
    }
    return out;
}

void RankEnsembleModel::save(ParameterMap& out) const
{
    Vector scales(static_cast<Eigen::Index>(m_members.size()));
    for (size_t m = 0; m < m_members.size(); ++m) {
        scales(static_cast<Eigen::Index>(m)) = m_members[m].lengthScale;
        ParameterMap sub;
        m_members[m].model->save(sub);
        for (const auto& [key, value] : sub.entries()) {
            out.set(memberPrefix(m) + key, value);
        }
        out.set(memberPrefix(m) + "ensemble_reference", m_members[m].reference);
    }
    out.set(kScales, scales);
    out.set(kAgreement, Vector((Vector(2) << m_minAgreement, m_meanAgreement).finished()));
    out.set(kCombination,
            Vector(Vector::Constant(1, m_combination == Combination::MaxRank ? 1.0 : 0.0)));
}

bool RankEnsembleModel::isEnsemble(const ParameterMap& parameters)
{
    return parameters.has(kScales);
}

std::unique_ptr<RankEnsembleModel>
RankEnsembleModel::load(const Estimator& estimator, const ParameterMap& p, const KernelSpec& kernel)
{
    const Vector& scales = p.vector(kScales);
    const Vector& agreement = p.vector(kAgreement);
    if (scales.size() < 1 || scales.size() > 64 || !(scales.array() > 0.0).all() ||
        !scales.allFinite()) {
        throw ParameterError(kScales, "must hold 1 to 64 positive length scales");
    }
    if (agreement.size() != 2) {
        throw ParameterError(kAgreement, "must hold 2 numbers");
    }
    Combination combination = Combination::MeanRank; // files before the anomaly rule
    if (p.has(kCombination)) {
        const Vector& c = p.vector(kCombination);
        if (c.size() != 1 || (c(0) != 0.0 && c(0) != 1.0)) {
            throw ParameterError(kCombination, "must be 0 (mean rank) or 1 (max anomaly rank)");
        }
        combination = c(0) == 1.0 ? Combination::MaxRank : Combination::MeanRank;
    }
    // A member block beyond the length scales would be read by nobody: a file that lost a
    // scale, or was put together by hand, says so instead of scoring with fewer members.
    for (const auto& [key, value] : p.entries()) {
        if (key.rfind("member", 0) == 0) {
            const size_t dot = key.find('.');
            const std::string index = key.substr(6, dot == std::string::npos ? 0 : dot - 6);
            if (index.empty() || index.find_first_not_of("0123456789") != std::string::npos ||
                index.size() > 2 || std::stoul(index) >= size_t(scales.size())) {
                throw ParameterError(key.substr(0, dot),
                                     "is not a member of the ensemble (it has " +
                                         std::to_string(scales.size()) + " length scales)");
            }
        }
    }
    std::vector<Member> members;
    for (size_t m = 0; m < size_t(scales.size()); ++m) {
        const std::string prefix = memberPrefix(m);
        ParameterMap sub;
        for (const auto& [key, value] : p.entries()) {
            if (key.rfind(prefix, 0) == 0) {
                sub.set(key.substr(prefix.size()), value);
            }
        }
        Member member;
        member.lengthScale = scales(Eigen::Index(m));
        member.reference = p.vector(prefix + "ensemble_reference");
        if (member.reference.size() < 1 || !member.reference.allFinite() ||
            !std::is_sorted(member.reference.data(),
                            member.reference.data() + member.reference.size())) {
            throw ParameterError(prefix + "ensemble_reference",
                                 "must be a sorted list of finite values");
        }
        KernelSpec k = kernel;
        k.lengthScale = member.lengthScale;
        try {
            // Every member scores the same rows: one whose training rows have other columns than
            // the first's would score a wrong slice of them (the file's columns are checked
            // against the first member only). Said before the member's own checks, which would
            // find its stored values inconsistent without saying why.
            if (!members.empty() && sub.has("train") && members.front().model->kernel()) {
                const Eigen::Index dim = sub.matrix("train").cols();
                const int firstDim = members.front().model->kernel()->dim();
                if (dim != firstDim) {
                    throw ParameterError("train", "has " + std::to_string(dim) +
                                                      " columns, the ensemble's first "
                                                      "member " +
                                                      std::to_string(firstDim));
                }
            }
            member.model = estimator.load(sub, &k);
        } catch (const ParameterError& e) {
            // The member's own fields are named as the file has them: member1.weights.
            throw ParameterError(sub.has(e.parameter()) ? prefix + e.parameter() : e.parameter(),
                                 e.message());
        }
        members.push_back(std::move(member));
    }
    return std::unique_ptr<RankEnsembleModel>(
        new RankEnsembleModel(std::move(members), agreement(0), agreement(1), combination));
}

SummaryFields RankEnsembleModel::summary() const
{
    std::string scales;
    for (const Member& m : m_members) {
        scales += (scales.empty() ? "" : " ") + numberText(m.lengthScale, 6);
    }
    SummaryFields f = {
        {"ensemble_length_scales", scales},
        {"ensemble_members", static_cast<long long>(m_members.size())},
        {"ensemble_combination",
         std::string(m_combination == Combination::MaxRank ? "max anomaly rank" : "mean rank")},
        {"ensemble_min_spearman", m_minAgreement},
        {"ensemble_mean_spearman", m_meanAgreement}};
    return f;
}

} // namespace sosrep
