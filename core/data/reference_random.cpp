// SPDX-License-Identifier: MIT
// MT19937 and the draws NumPy's RandomState and Python's random module make from it.
#include "core/data/reference_random.h"

#include <algorithm>
#include <utility>

namespace sosrep {

void Mt19937::seedWord(uint32_t seed)
{
    m_state[0] = seed;
    for (uint32_t i = 1; i < 624; ++i) {
        m_state[i] = 1812433253U * (m_state[i - 1] ^ (m_state[i - 1] >> 30)) + i;
    }
    m_index = 624;
}

Mt19937 Mt19937::byArray(const std::vector<uint32_t>& key)
{
    Mt19937 mt(19650218U);
    auto& s = mt.m_state;
    const size_t n = 624;
    const size_t length = std::max<size_t>(key.size(), 1);
    size_t i = 1, j = 0;
    for (size_t k = std::max(n, length); k > 0; --k) {
        s[i] = (s[i] ^ ((s[i - 1] ^ (s[i - 1] >> 30)) * 1664525U)) + (key.empty() ? 0 : key[j]) +
               uint32_t(j);
        ++i;
        ++j;
        if (i >= n) {
            s[0] = s[n - 1];
            i = 1;
        }
        if (j >= length) {
            j = 0;
        }
    }
    for (size_t k = n - 1; k > 0; --k) {
        s[i] = (s[i] ^ ((s[i - 1] ^ (s[i - 1] >> 30)) * 1566083941U)) - uint32_t(i);
        ++i;
        if (i >= n) {
            s[0] = s[n - 1];
            i = 1;
        }
    }
    s[0] = 0x80000000U; // a non-zero initial state
    mt.m_index = 624;
    return mt;
}

uint32_t Mt19937::next()
{
    constexpr uint32_t kUpper = 0x80000000U, kLower = 0x7fffffffU, kMatrix = 0x9908b0dfU;
    if (m_index >= 624) {
        for (int k = 0; k < 624; ++k) {
            const uint32_t y = (m_state[k] & kUpper) | (m_state[(k + 1) % 624] & kLower);
            m_state[k] = m_state[(k + 397) % 624] ^ (y >> 1) ^ ((y & 1U) ? kMatrix : 0U);
        }
        m_index = 0;
    }
    uint32_t y = m_state[m_index++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= y >> 18;
    return y;
}

namespace {

/// The smallest all-ones mask covering `max` (NumPy's gen_mask).
uint64_t maskOf(uint64_t max)
{
    uint64_t mask = max;
    for (int shift : {1, 2, 4, 8, 16, 32}) {
        mask |= mask >> shift;
    }
    return mask;
}

} // namespace

uint64_t NumpyLegacyRandom::interval(uint64_t max)
{
    if (max == 0) {
        return 0;
    }
    const uint64_t mask = maskOf(max);
    uint64_t value = 0;
    while ((value = (m_mt.next() & mask)) > max) {
    }
    return value;
}

void NumpyLegacyRandom::shuffle(std::vector<Eigen::Index>& x)
{
    for (size_t i = x.size(); i-- > 1;) {
        std::swap(x[i], x[size_t(interval(i))]);
    }
}

std::vector<Eigen::Index> NumpyLegacyRandom::permutation(Eigen::Index n)
{
    std::vector<Eigen::Index> x(static_cast<size_t>(n));
    for (Eigen::Index i = 0; i < n; ++i) {
        x[size_t(i)] = i;
    }
    shuffle(x);
    return x;
}

std::vector<Eigen::Index> NumpyLegacyRandom::randint(Eigen::Index n, Eigen::Index count)
{
    std::vector<Eigen::Index> out(static_cast<size_t>(count));
    for (auto& v : out) {
        v = Eigen::Index(interval(uint64_t(n - 1)));
    }
    return out;
}

PythonRandom::PythonRandom(uint64_t seed)
    : m_mt(Mt19937::byArray(seed >> 32 ? std::vector<uint32_t>{uint32_t(seed), uint32_t(seed >> 32)}
                                       : std::vector<uint32_t>{uint32_t(seed)}))
{
}

uint64_t PythonRandom::below(uint64_t n)
{
    int bits = 0;
    while (bits < 64 && (n >> bits) != 0) {
        ++bits;
    }
    // getrandbits(k) for k <= 32: the top k bits of one word (larger n do not occur here).
    uint64_t r = 0;
    do {
        r = m_mt.next() >> (32 - bits);
    } while (r >= n);
    return r;
}

void PythonRandom::shuffle(std::vector<Eigen::Index>& x)
{
    for (size_t i = x.size(); i-- > 1;) {
        std::swap(x[i], x[size_t(below(i + 1))]);
    }
}

} // namespace sosrep
