// SPDX-License-Identifier: MIT
// The random draws of NumPy's legacy RandomState and of Python's `random` module, so that a
// protocol defined by Python code (ADBench's data generator) picks the same rows here.
#pragma once

#include <Eigen/Core>

#include <array>
#include <cstdint>
#include <vector>

namespace sosrep {

/// The Mersenne Twister MT19937 (Matsumoto and Nishimura, 1998), with its two seedings: one
/// 32-bit word (init_genrand: NumPy's RandomState(seed) and np.random.seed(int)) and a key of
/// words (init_by_array: Python's random.seed(int), the int's 32-bit words low first).
class Mt19937
{
public:
    explicit Mt19937(uint32_t seed) { seedWord(seed); }
    static Mt19937 byArray(const std::vector<uint32_t>& key);

    uint32_t next();

private:
    Mt19937() = default;
    void seedWord(uint32_t seed);
    std::array<uint32_t, 624> m_state{};
    int m_index = 624;
};

/// NumPy's legacy draws (numpy.random.RandomState, fixed by NumPy's compatibility policy).
class NumpyLegacyRandom
{
public:
    explicit NumpyLegacyRandom(uint32_t seed) : m_mt(seed) {}

    /// random_interval(max): uniform on [0, max] by masked rejection of 32-bit words
    /// (max < 2^32 here).
    uint64_t interval(uint64_t max);
    /// shuffle(x) of a 1-D array: Fisher-Yates from the end, j = interval(i).
    void shuffle(std::vector<Eigen::Index>& x);
    /// permutation(n): shuffle(arange(n)).
    std::vector<Eigen::Index> permutation(Eigen::Index n);
    /// randint(0, n, size=count) (int64; masked rejection, as interval).
    std::vector<Eigen::Index> randint(Eigen::Index n, Eigen::Index count);

private:
    Mt19937 m_mt;
};

/// Python's random module: random.seed(int) and random.shuffle (via _randbelow, getrandbits).
class PythonRandom
{
public:
    explicit PythonRandom(uint64_t seed);

    /// _randbelow(n): getrandbits(n.bit_length()) until below n.
    uint64_t below(uint64_t n);
    /// random.shuffle(x): Fisher-Yates from the end, j = below(i + 1).
    void shuffle(std::vector<Eigen::Index>& x);

private:
    Mt19937 m_mt;
};

} // namespace sosrep
