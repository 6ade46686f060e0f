// SPDX-License-Identifier: MIT
// exp with results below the smallest normal number set to exactly zero.
#pragma once

#include <Eigen/Core>

#include <cassert>
#include <cmath>
#include <limits>
#include <utility>

namespace sosrep {

/// Sets every entry of `a` (contiguous storage) smaller in magnitude than the smallest normal
/// number of its type (2.2e-308 in double, 1.2e-38 in single precision) to exactly 0. Kernel
/// entries exp(-r^2 / 2l^2) that small are zero by construction, not by luck (issue 48):
/// Eigen's vectorized exp clamps its argument (at -709.4 in double, -88.4 in single) and
/// returns a subnormal number, not 0, for every pair farther apart, and each later operation on
/// one costs ~100 normal ones on CPUs that handle subnormal numbers in microcode. A value that
/// small weighs nothing beside the kernel's unit diagonal. The SDO profile's negative entries
/// are flushed by magnitude. A plain loop, which the compiler vectorizes (Eigen's select() does
/// not: with it every exp went through libm, 18 % of a fit).
template <typename Derived> void flushSubnormalEntries(Eigen::DenseBase<Derived>&& a)
{
    using T = typename Derived::Scalar;
    assert(a.innerStride() == 1);
    const T lowest = std::numeric_limits<T>::min();
    const Eigen::Index inner = a.innerSize();
    for (Eigen::Index o = 0; o < a.outerSize(); ++o) {
        T* data = a.derived().data() + o * a.outerStride();
        for (Eigen::Index i = 0; i < inner; ++i) {
            data[i] = std::abs(data[i]) < lowest ? T(0) : data[i];
        }
    }
}

/// The same for a named array, matrix, map or block.
template <typename Derived> void flushSubnormalEntries(Eigen::DenseBase<Derived>& a)
{
    flushSubnormalEntries(std::move(a));
}

/// exp(x) elementwise (Eigen's vectorized exp), with results below the smallest normal number
/// exactly 0.
template <typename Derived>
typename Derived::PlainObject flushedExp(const Eigen::ArrayBase<Derived>& x)
{
    typename Derived::PlainObject e = x.exp();
    flushSubnormalEntries(e);
    return e;
}

/// exp of a matrix expression's entries, as a matrix (one allocation, as .array().exp()).
template <typename Derived>
typename Derived::PlainObject flushedExp(const Eigen::MatrixBase<Derived>& x)
{
    typename Derived::PlainObject e = x.array().exp().matrix();
    flushSubnormalEntries(e);
    return e;
}

/// The same for one number.
inline double flushedExp(double x)
{
    const double e = std::exp(x);
    return e < std::numeric_limits<double>::min() ? 0.0 : e;
}

} // namespace sosrep
