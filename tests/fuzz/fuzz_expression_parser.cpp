// SPDX-License-Identifier: MIT
// libFuzzer target: the q-function expression parser and its evaluator on arbitrary text. The
// first byte picks the number of columns (1-8), the rest is the expression. Bad text must end in
// ParameterError; a parsed expression must evaluate every row, the same one row at a time as in
// a batch. Anything else (a crash, a stack overflow, a sanitizer report) is a finding.
#include "core/errors.h"
#include "core/ratio/expression.h"

#include <cmath>
#include <cstring>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (size == 0) {
        return 0;
    }
    const int dim = 1 + data[0] % 8;
    const std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
    try {
        const sosrep::Expression e = sosrep::Expression::parse(text, dim);
        sosrep::Matrix x(3, dim);
        for (int j = 0; j < dim; ++j) {
            x(0, j) = 0.0;
            x(1, j) = 0.5 + j;
            x(2, j) = -1.25 * (j + 1);
        }
        const sosrep::Vector batch = e.evaluate(x);
        for (Eigen::Index i = 0; i < x.rows(); ++i) {
            const double one = e(x.row(i));
            if (std::memcmp(&one, &batch(i), sizeof one) != 0 &&
                !(std::isnan(one) && std::isnan(batch(i)))) {
                __builtin_trap();
            }
        }
    } catch (const sosrep::ParameterError&) {
    }
    return 0;
}
