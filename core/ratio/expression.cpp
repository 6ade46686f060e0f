// SPDX-License-Identifier: MIT
// The small expression language of a known q, e.g. `exp(-x1^2/2)`, parsed once.
#include "core/ratio/expression.h"

#include "core/errors.h"
#include "core/util/text.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace sosrep {

/// One instruction of the postfix program: push a number or a column, or replace the top one
/// (Neg, Call) or two (the binary operators) values of the stack by the result.
struct Expression::Op
{
    enum Code
    {
        Number,
        Column,
        Add,
        Sub,
        Mul,
        Div,
        Pow,
        Neg,
        Call
    } code = Number;
    double value = 0.0;
    int column = 0;
    double (*function)(double) = nullptr;
};

namespace {

using Op = Expression::Op;

double absOf(double v)
{
    return std::fabs(v);
}
double expOf(double v)
{
    return std::exp(v);
}
double logOf(double v)
{
    return std::log(v);
}
double sqrtOf(double v)
{
    return std::sqrt(v);
}
double sinOf(double v)
{
    return std::sin(v);
}
double cosOf(double v)
{
    return std::cos(v);
}

/// Recursive descent that writes postfix code as it goes. Binary chains are loops (no depth);
/// only nesting recurses, and a Nesting guard counts it.
class Parser
{
public:
    Parser(const std::string& text, int dim, const std::string& parameter)
        : m_text(text), m_dim(dim), m_parameter(parameter)
    {
    }

    std::vector<Op> parseAll(size_t& stackSize)
    {
        skip();
        if (m_pos >= m_text.size()) {
            fail("the expression is empty");
        }
        sum();
        skip();
        if (m_pos < m_text.size()) {
            fail("unexpected " + characterAt(m_pos));
        }
        stackSize = m_maxStack;
        return std::move(m_code);
    }

private:
    class Nesting
    {
    public:
        explicit Nesting(Parser& p) : m_p(p)
        {
            if (++m_p.m_depth > Expression::maxNesting) {
                m_p.fail("nested more than " + std::to_string(Expression::maxNesting) +
                         " levels deep");
            }
        }
        ~Nesting() { --m_p.m_depth; }
        Nesting(const Nesting&) = delete;
        Nesting& operator=(const Nesting&) = delete;

    private:
        Parser& m_p;
    };

    [[noreturn]] void fail(const std::string& what) const
    {
        throw ParameterError(m_parameter, "column " + std::to_string(m_pos + 1) + ": " + what +
                                              " in " + quotedNear(m_text, m_pos));
    }
    /// The whole character at `at` for a message: a valid UTF-8 sequence as itself, any other
    /// byte as \xNN (a lone byte of a multi-byte character would garble the terminal).
    std::string characterAt(size_t at) const
    {
        const auto lead = static_cast<unsigned char>(m_text[at]);
        size_t length = lead < 0x80           ? 1
                        : (lead >> 5) == 0x6  ? 2
                        : (lead >> 4) == 0xE  ? 3
                        : (lead >> 3) == 0x1E ? 4
                                              : 0;
        if (length > 1) {
            for (size_t k = 1; k < length; ++k) {
                if (at + k >= m_text.size() ||
                    (static_cast<unsigned char>(m_text[at + k]) & 0xC0) != 0x80) {
                    length = 0;
                    break;
                }
            }
        }
        if (length == 0) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\x%02X", lead);
            return std::string("byte ") + buf;
        }
        return quotedText(std::string_view(m_text).substr(at, length));
    }
    void skip()
    {
        while (m_pos < m_text.size() && std::isspace(static_cast<unsigned char>(m_text[m_pos]))) {
            ++m_pos;
        }
    }
    bool accept(char c)
    {
        skip();
        if (m_pos < m_text.size() && m_text[m_pos] == c) {
            ++m_pos;
            return true;
        }
        return false;
    }
    void emit(Op op)
    {
        if (op.code == Op::Number || op.code == Op::Column) {
            m_maxStack = std::max(m_maxStack, ++m_stack);
        } else if (op.code != Op::Neg && op.code != Op::Call) {
            --m_stack;
        }
        m_code.push_back(op);
    }
    void emit(Op::Code code) { emit(Op{code, 0.0, 0, nullptr}); }

    void sum()
    {
        product();
        for (;;) {
            if (accept('+')) {
                product();
                emit(Op::Add);
            } else if (accept('-')) {
                product();
                emit(Op::Sub);
            } else {
                return;
            }
        }
    }
    void product()
    {
        unary();
        for (;;) {
            if (accept('*')) {
                unary();
                emit(Op::Mul);
            } else if (accept('/')) {
                unary();
                emit(Op::Div);
            } else {
                return;
            }
        }
    }
    void unary()
    {
        if (accept('-')) {
            const Nesting level(*this);
            unary();
            emit(Op::Neg);
        } else if (accept('+')) {
            const Nesting level(*this);
            unary();
        } else {
            power();
        }
    }
    void power()
    {
        atom();
        if (accept('^')) {
            const Nesting level(*this);
            unary();
            emit(Op::Pow);
        }
    }
    void atom()
    {
        skip();
        if (m_pos >= m_text.size()) {
            fail("the expression ends where a number, x1..x" + std::to_string(m_dim) +
                 ", a function or '(' was expected");
        }
        const char c = m_text[m_pos];
        if (c == '(') {
            const Nesting level(*this);
            ++m_pos;
            sum();
            if (!accept(')')) {
                fail("expected ')'");
            }
        } else if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') {
            number();
        } else if (std::isalpha(static_cast<unsigned char>(c))) {
            const size_t start = m_pos;
            while (m_pos < m_text.size() &&
                   std::isalnum(static_cast<unsigned char>(m_text[m_pos]))) {
                ++m_pos;
            }
            named(m_text.substr(start, m_pos - start), start);
        } else {
            fail("unexpected " + characterAt(m_pos));
        }
    }
    void number()
    {
        // from_chars, not strtod: strtod follows LC_NUMERIC, so under a German locale "0.5"
        // would stop at the '.' and "0,5" would be read as one half.
        const char* begin = m_text.data() + m_pos;
        double v = 0.0;
        const auto [end, error] =
            std::from_chars(begin, m_text.data() + m_text.size(), v, std::chars_format::general);
        if (end == begin) {
            fail("malformed number");
        }
        if (error == std::errc::result_out_of_range) {
            fail("the number " + quotedText(std::string_view(begin, size_t(end - begin))) +
                 " is out of the range of a double");
        }
        m_pos += static_cast<size_t>(end - begin);
        emit(Op{Op::Number, v, 0, nullptr});
    }
    void named(const std::string& word, size_t start)
    {
        if (word == "pi") {
            emit(Op{Op::Number, 3.14159265358979323846, 0, nullptr});
            return;
        }
        if (word.size() > 1 && word[0] == 'x' &&
            word.find_first_not_of("0123456789", 1) == std::string::npos) {
            column(word, start);
            return;
        }
        static const std::pair<const char*, double (*)(double)> functions[] = {
            {"exp", expOf}, {"log", logOf}, {"sqrt", sqrtOf},
            {"sin", sinOf}, {"cos", cosOf}, {"abs", absOf}};
        for (const auto& [name, fn] : functions) {
            if (word == name) {
                const Nesting level(*this);
                if (!accept('(')) {
                    fail("expected '(' after " + word);
                }
                sum();
                if (!accept(')')) {
                    fail("expected ')'");
                }
                emit(Op{Op::Call, 0.0, 0, fn});
                return;
            }
        }
        m_pos = start;
        fail("unknown name " + quotedText(word) + " (use x1..x" + std::to_string(m_dim) +
             ", pi, exp, log, sqrt, sin, cos, abs)");
    }
    void column(const std::string& word, size_t start)
    {
        // Read the digits with a bound, not atoi: "x4294967297" must not wrap round to x1.
        long long col = 0;
        for (size_t k = 1; k < word.size() && col <= m_dim; ++k) {
            col = col * 10 + (word[k] - '0');
        }
        if (col < 1 || col > m_dim) {
            m_pos = start;
            fail(quotedText(word) + " is not a column: the data have " + std::to_string(m_dim) +
                 " column" + (m_dim == 1 ? "" : "s") + " (x1..x" + std::to_string(m_dim) + ")");
        }
        emit(Op{Op::Column, 0.0, int(col - 1), nullptr});
    }

    const std::string& m_text;
    int m_dim;
    const std::string& m_parameter;
    size_t m_pos = 0;
    int m_depth = 0;
    size_t m_stack = 0;
    size_t m_maxStack = 0;
    std::vector<Op> m_code;
};

double run(const std::vector<Op>& program, double* stack,
           const Eigen::Ref<const Eigen::RowVectorXd>& row)
{
    size_t top = 0; // number of values on the stack
    for (const Op& op : program) {
        switch (op.code) {
        case Op::Number:
            stack[top++] = op.value;
            break;
        case Op::Column:
            stack[top++] = row(op.column);
            break;
        case Op::Add:
            --top;
            stack[top - 1] += stack[top];
            break;
        case Op::Sub:
            --top;
            stack[top - 1] -= stack[top];
            break;
        case Op::Mul:
            --top;
            stack[top - 1] *= stack[top];
            break;
        case Op::Div:
            --top;
            stack[top - 1] /= stack[top];
            break;
        case Op::Pow:
            --top;
            stack[top - 1] = std::pow(stack[top - 1], stack[top]);
            break;
        case Op::Neg:
            stack[top - 1] = -stack[top - 1];
            break;
        case Op::Call:
            stack[top - 1] = op.function(stack[top - 1]);
            break;
        }
    }
    return stack[0];
}

} // namespace

Expression Expression::parse(const std::string& text, int dim, const std::string& parameter)
{
    Parser p(text, dim, parameter);
    Expression e;
    e.m_program = std::make_shared<const std::vector<Op>>(p.parseAll(e.m_stackSize));
    e.m_text = text;
    return e;
}

double Expression::operator()(const Eigen::Ref<const Eigen::RowVectorXd>& row) const
{
    std::vector<double> stack(m_stackSize);
    return run(*m_program, stack.data(), row);
}

Vector Expression::evaluate(const MatrixRef& x) const
{
    std::vector<double> stack(m_stackSize);
    Vector out(x.rows());
    for (Eigen::Index i = 0; i < x.rows(); ++i) {
        out(i) = run(*m_program, stack.data(), x.row(i));
    }
    return out;
}

} // namespace sosrep
