// SPDX-License-Identifier: MIT
// Train/test splits, k folds, subsamples and ADBench's duplicated anomalies, all seeded.
#include "core/data/split.h"

#include "core/errors.h"
#include "core/random.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <unordered_map>

namespace sosrep {

SplitIndices trainTestSplit(Eigen::Index n, double testFraction, uint64_t seed,
                            const std::optional<Eigen::VectorXi>& labels, bool stratify)
{
    if (!(testFraction > 0.0 && testFraction < 1.0)) {
        throw ParameterError("test_fraction", "must lie strictly between 0 and 1");
    }
    Rng rng(seed);
    SplitIndices out;
    std::vector<std::vector<Eigen::Index>> groups(1);
    if (stratify && labels) {
        groups.assign(2, {});
        for (Eigen::Index i = 0; i < n; ++i) {
            groups[(*labels)(i) != 0 ? 1 : 0].push_back(i);
        }
    } else {
        groups[0].resize(static_cast<size_t>(n));
        std::iota(groups[0].begin(), groups[0].end(), Eigen::Index(0));
    }
    for (auto& g : groups) {
        rng.shuffle(g);
        const auto nTest = static_cast<size_t>(std::llround(testFraction * double(g.size())));
        out.test.insert(out.test.end(), g.begin(), g.begin() + static_cast<long>(nTest));
        out.train.insert(out.train.end(), g.begin() + static_cast<long>(nTest), g.end());
    }
    std::sort(out.train.begin(), out.train.end());
    std::sort(out.test.begin(), out.test.end());
    return out;
}

std::vector<SplitIndices> kFoldSplits(Eigen::Index n, int k, uint64_t seed)
{
    if (k < 2 || Eigen::Index(k) > n) {
        throw ParameterError("fd_folds", "needs between 2 and " + std::to_string(n) +
                                             " folds (one per row at most)");
    }
    std::vector<Eigen::Index> order(static_cast<size_t>(n));
    std::iota(order.begin(), order.end(), Eigen::Index(0));
    Rng(seed).shuffle(order);
    std::vector<SplitIndices> folds(static_cast<size_t>(k));
    for (size_t i = 0; i < order.size(); ++i) {
        for (size_t f = 0; f < folds.size(); ++f) {
            (i % folds.size() == f ? folds[f].test : folds[f].train).push_back(order[i]);
        }
    }
    for (SplitIndices& f : folds) {
        std::sort(f.train.begin(), f.train.end());
        std::sort(f.test.begin(), f.test.end());
    }
    return folds;
}

std::vector<Eigen::Index> subsampleRows(Eigen::Index n, Eigen::Index maxRows, uint64_t seed)
{
    std::vector<Eigen::Index> idx(static_cast<size_t>(n));
    std::iota(idx.begin(), idx.end(), Eigen::Index(0));
    if (n <= maxRows) {
        return idx;
    }
    Rng rng(seed);
    rng.shuffle(idx);
    idx.resize(static_cast<size_t>(maxRows));
    std::sort(idx.begin(), idx.end());
    return idx;
}

std::vector<Eigen::Index> duplicatedAnomalyRows(const Eigen::VectorXi& labels, double factor,
                                                uint64_t seed)
{
    std::vector<Eigen::Index> normal, anomalies, rows;
    for (Eigen::Index i = 0; i < labels.size(); ++i) {
        (labels(i) == 1 ? anomalies : normal).push_back(i);
    }
    if (factor <= 1.0 || anomalies.empty()) {
        rows.resize(static_cast<size_t>(labels.size()));
        for (Eigen::Index i = 0; i < labels.size(); ++i) {
            rows[static_cast<size_t>(i)] = i;
        }
        return rows;
    }
    Rng rng(seed);
    rows = normal;
    const auto draws = static_cast<size_t>(std::floor(double(anomalies.size()) * factor));
    for (size_t k = 0; k < draws; ++k) {
        const auto j = std::min(anomalies.size() - 1,
                                static_cast<size_t>(rng.uniform() * double(anomalies.size())));
        rows.push_back(anomalies[j]);
    }
    for (size_t i = rows.size(); i > 1; --i) { // Fisher-Yates
        const auto j = std::min(i - 1, static_cast<size_t>(rng.uniform() * double(i)));
        std::swap(rows[i - 1], rows[j]);
    }
    return rows;
}

Eigen::MatrixXd rowsOf(const Eigen::Ref<const Eigen::MatrixXd>& x,
                       const std::vector<Eigen::Index>& rows)
{
    Eigen::MatrixXd out(Eigen::Index(rows.size()), x.cols());
    for (size_t i = 0; i < rows.size(); ++i) {
        out.row(Eigen::Index(i)) = x.row(rows[i]);
    }
    return out;
}

std::vector<Eigen::Index> entriesOf(const std::vector<Eigen::Index>& indices,
                                    const std::vector<Eigen::Index>& at)
{
    std::vector<Eigen::Index> out;
    out.reserve(at.size());
    for (Eigen::Index k : at) {
        out.push_back(indices[size_t(k)]);
    }
    return out;
}

Eigen::VectorXd entriesOf(const Eigen::VectorXd& v, const std::vector<Eigen::Index>& rows)
{
    if (v.size() == 0) {
        return v;
    }
    Eigen::VectorXd out(Eigen::Index(rows.size()));
    for (size_t i = 0; i < rows.size(); ++i) {
        out(Eigen::Index(i)) = v(rows[i]);
    }
    return out;
}

std::vector<std::vector<Eigen::Index>>
identicalRowGroups(const Eigen::Ref<const Eigen::MatrixXd>& x)
{
    // Hash each row's bytes (FNV-1a), then compare with the group's first row: rows of 1555
    // columns are not copied into keys.
    std::unordered_map<uint64_t, std::vector<size_t>> byHash; // hash -> groups
    std::vector<std::vector<Eigen::Index>> groups;
    for (Eigen::Index i = 0; i < x.rows(); ++i) {
        uint64_t h = 1469598103934665603ull;
        for (Eigen::Index j = 0; j < x.cols(); ++j) {
            const double v = x(i, j) == 0.0 ? 0.0 : x(i, j); // -0 and +0 are one value
            uint64_t bits = 0;
            std::memcpy(&bits, &v, sizeof bits);
            for (int b = 0; b < 8; ++b) {
                h = (h ^ ((bits >> (8 * b)) & 0xFF)) * 1099511628211ull;
            }
        }
        std::vector<size_t>& candidates = byHash[h];
        const auto same = std::find_if(candidates.begin(), candidates.end(), [&](size_t g) {
            return (x.row(groups[g].front()).array() == x.row(i).array()).all();
        });
        if (same != candidates.end()) {
            groups[*same].push_back(i);
        } else {
            candidates.push_back(groups.size());
            groups.push_back({i});
        }
    }
    return groups;
}

SplitIndices rowsOfGroups(const SplitIndices& groupSplit,
                          const std::vector<std::vector<Eigen::Index>>& groups)
{
    SplitIndices out;
    for (const auto& [from, to] :
         {std::pair{&groupSplit.train, &out.train}, std::pair{&groupSplit.test, &out.test}}) {
        for (Eigen::Index g : *from) {
            const auto& rows = groups[size_t(g)];
            to->insert(to->end(), rows.begin(), rows.end());
        }
        std::sort(to->begin(), to->end());
    }
    return out;
}

} // namespace sosrep
