// SPDX-License-Identifier: MIT
// ADBench's generator's draws, step by step in the order its Python code makes them.
#include "core/data/adbench_generator.h"

#include "core/data/reference_random.h"

#include <algorithm>
#include <cmath>

namespace sosrep {
namespace {

using Rows = std::vector<Eigen::Index>;

/// scikit-learn's _approximate_mode: the counts to draw from each class, floor of the exact
/// share, the rest to the largest remainders (ties broken by rng.choice, which draws only
/// when two or more classes tie).
std::vector<Eigen::Index> approximateMode(const std::vector<Eigen::Index>& counts,
                                          Eigen::Index draws, NumpyLegacyRandom& rng)
{
    Eigen::Index total = 0;
    for (Eigen::Index c : counts) {
        total += c;
    }
    std::vector<double> continuous(counts.size()), remainder(counts.size());
    std::vector<Eigen::Index> out(counts.size());
    Eigen::Index floored = 0;
    for (size_t k = 0; k < counts.size(); ++k) {
        continuous[k] = double(counts[k]) / double(total) * double(draws);
        out[k] = Eigen::Index(std::floor(continuous[k]));
        remainder[k] = continuous[k] - std::floor(continuous[k]);
        floored += out[k];
    }
    Eigen::Index need = draws - floored;
    std::vector<double> values = remainder;
    std::sort(values.begin(), values.end(), std::greater<>());
    values.erase(std::unique(values.begin(), values.end()), values.end());
    for (double value : values) {
        if (need <= 0) {
            break;
        }
        Rows inds;
        for (size_t k = 0; k < remainder.size(); ++k) {
            if (remainder[k] == value) {
                inds.push_back(Eigen::Index(k));
            }
        }
        const Eigen::Index now = std::min(Eigen::Index(inds.size()), need);
        const Rows order = rng.permutation(Eigen::Index(inds.size())); // rng.choice(inds, now)
        for (Eigen::Index a = 0; a < now; ++a) {
            ++out[size_t(inds[size_t(order[size_t(a)])])];
        }
        need -= now;
    }
    return out;
}

/// train_test_split(shuffle=True, stratify=y) on the rows `rows` with labels `y` (positions).
AdbenchParts stratifiedSplit(const Rows& rows, const Eigen::VectorXi& y, double testFraction,
                             NumpyLegacyRandom& rng)
{
    const auto n = Eigen::Index(rows.size());
    const auto nTest = Eigen::Index(std::ceil(testFraction * double(n)));
    const Eigen::Index nTrain = n - nTest;
    std::vector<Rows> byClass(2); // np.unique's sorted classes, positions ascending
    for (Eigen::Index i = 0; i < n; ++i) {
        byClass[y(i) != 0 ? 1 : 0].push_back(i);
    }
    // np.unique holds only the classes present (a set without anomalies has one).
    byClass.erase(
        std::remove_if(byClass.begin(), byClass.end(), [](const Rows& c) { return c.empty(); }),
        byClass.end());
    std::vector<Eigen::Index> counts;
    for (const Rows& c : byClass) {
        counts.push_back(Eigen::Index(c.size()));
    }
    const std::vector<Eigen::Index> trainCounts = approximateMode(counts, nTrain, rng);
    std::vector<Eigen::Index> remaining;
    for (size_t k = 0; k < counts.size(); ++k) {
        remaining.push_back(counts[k] - trainCounts[k]);
    }
    const std::vector<Eigen::Index> testCounts = approximateMode(remaining, nTest, rng);
    Rows train, test;
    for (size_t k = 0; k < byClass.size(); ++k) {
        const Rows order = rng.permutation(counts[k]);
        for (Eigen::Index a = 0; a < trainCounts[k] + testCounts[k]; ++a) {
            (a < trainCounts[k] ? train : test).push_back(byClass[k][size_t(order[size_t(a)])]);
        }
    }
    rng.shuffle(train);
    rng.shuffle(test);
    AdbenchParts parts;
    for (Eigen::Index p : train) {
        parts.train.push_back(rows[size_t(p)]);
    }
    for (Eigen::Index p : test) {
        parts.test.push_back(rows[size_t(p)]);
    }
    return parts;
}

/// add_duplicated_anomalies on one part: the normal rows, then floor(times x anomalies)
/// anomalies drawn with replacement (numpy), the whole shuffled by Python's random.shuffle.
Rows duplicated(const Rows& part, const Eigen::VectorXi& labels, double times,
                NumpyLegacyRandom& rng, PythonRandom& py)
{
    Rows normal, anomalies;
    for (Eigen::Index r : part) {
        (labels(r) != 0 ? anomalies : normal).push_back(r);
    }
    const auto draws = Eigen::Index(std::floor(double(anomalies.size()) * times));
    Rows out = normal;
    for (Eigen::Index k : rng.randint(Eigen::Index(anomalies.size()), draws)) {
        out.push_back(anomalies[size_t(k)]);
    }
    py.shuffle(out);
    return out;
}

} // namespace

AdbenchParts adbenchParts(const Eigen::VectorXi& labels, uint32_t seed,
                          const AdbenchGeneratorOptions& options)
{
    NumpyLegacyRandom rng(seed); // utils.set_seed: np.random.seed and random.seed
    PythonRandom py(seed);
    const Eigen::Index n = labels.size();
    Rows rows(static_cast<size_t>(n));
    for (Eigen::Index i = 0; i < n; ++i) {
        rows[size_t(i)] = i;
    }
    if (n < options.smallRows && options.resampleSmall) {
        rng = NumpyLegacyRandom(seed); // set_seed again before each draw of the data
        py = PythonRandom(seed);
        rows = rng.randint(n, options.smallRows);
    }
    if (Eigen::Index(rows.size()) > options.maxRows) {
        rng = NumpyLegacyRandom(seed);
        py = PythonRandom(seed);
        const Rows order = rng.permutation(Eigen::Index(rows.size()));
        Rows kept;
        for (Eigen::Index a = 0; a < options.maxRows; ++a) {
            kept.push_back(rows[size_t(order[size_t(a)])]);
        }
        rows = std::move(kept);
    }
    Eigen::VectorXi y(Eigen::Index(rows.size()));
    for (size_t i = 0; i < rows.size(); ++i) {
        y(Eigen::Index(i)) = labels(rows[i]);
    }
    AdbenchParts parts = stratifiedSplit(rows, y, options.testFraction, rng);
    if (options.duplicateTimes > 1.0) {
        parts.train = duplicated(parts.train, labels, options.duplicateTimes, rng, py);
        parts.test = duplicated(parts.test, labels, options.duplicateTimes, rng, py);
    }
    return parts;
}

} // namespace sosrep
