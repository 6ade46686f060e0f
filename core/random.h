// SPDX-License-Identifier: MIT
// Seeded random numbers (one generator type for the whole product).
#pragma once

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace sosrep {

/// Seeded random source whose output is fixed by this code, not by the standard library:
/// std::mt19937_64's sequence is specified by the C++ standard, while std::normal_distribution
/// and friends differ between library implementations. Seeds recorded in model files therefore
/// reproduce the same features and initialisations everywhere.
class Rng
{
public:
    explicit Rng(uint64_t seed) : m_engine(seed) {}

    /// Uniform on [0, 1) with 53 random bits.
    double uniform() { return static_cast<double>(m_engine() >> 11) * 0x1.0p-53; }

    /// Standard normal by Box-Muller (both values of a pair are used).
    double normal()
    {
        if (m_hasSpare) {
            m_hasSpare = false;
            return m_spare;
        }
        double u1 = uniform();
        while (u1 <= 0.0) {
            u1 = uniform();
        }
        const double u2 = uniform();
        const double r = std::sqrt(-2.0 * std::log(u1));
        const double t = 6.283185307179586476925 * u2;
        m_spare = r * std::sin(t);
        m_hasSpare = true;
        return r * std::cos(t);
    }

    /// Uniform integer in [0, n).
    uint64_t below(uint64_t n) { return static_cast<uint64_t>(uniform() * static_cast<double>(n)); }

    /// Fisher-Yates shuffle.
    template <typename T> void shuffle(std::vector<T>& v)
    {
        for (size_t i = v.size(); i > 1; --i) {
            std::swap(v[i - 1], v[below(i)]);
        }
    }

private:
    std::mt19937_64 m_engine;
    double m_spare = 0.0;
    bool m_hasSpare = false;
};

} // namespace sosrep
