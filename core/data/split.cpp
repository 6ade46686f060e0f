// SPDX-License-Identifier: MIT
#include "core/data/split.h"

#include "core/errors.h"
#include "core/random.h"

#include <algorithm>
#include <cmath>
#include <numeric>

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

} // namespace sosrep
