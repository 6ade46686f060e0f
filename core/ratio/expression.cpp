// SPDX-License-Identifier: MIT
#include "core/ratio/expression.h"

#include "core/errors.h"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <vector>

namespace sosrep {

struct Expression::Node
{
    enum Kind
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
    } kind = Number;
    double value = 0.0;
    int column = 0;
    double (*function)(double) = nullptr;
    std::shared_ptr<const Node> a;
    std::shared_ptr<const Node> b;
};

namespace {

using NodePtr = std::shared_ptr<const Expression::Node>;
using Node = Expression::Node;

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

class Parser
{
public:
    Parser(const std::string& text, int dim, const std::string& parameter)
        : m_text(text), m_dim(dim), m_parameter(parameter)
    {
    }

    NodePtr parseAll()
    {
        skip();
        if (m_pos >= m_text.size()) {
            fail("the expression is empty");
        }
        NodePtr e = sum();
        skip();
        if (m_pos < m_text.size()) {
            fail(std::string("unexpected '") + m_text[m_pos] + "'");
        }
        return e;
    }

private:
    [[noreturn]] void fail(const std::string& what) const
    {
        throw ParameterError(m_parameter, "column " + std::to_string(m_pos + 1) + ": " + what +
                                              " in '" + m_text + "'");
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
    static NodePtr make(Node::Kind kind, NodePtr a, NodePtr b = nullptr)
    {
        auto n = std::make_shared<Node>();
        n->kind = kind;
        n->a = std::move(a);
        n->b = std::move(b);
        return n;
    }
    NodePtr sum()
    {
        NodePtr left = product();
        for (;;) {
            if (accept('+')) {
                left = make(Node::Add, left, product());
            } else if (accept('-')) {
                left = make(Node::Sub, left, product());
            } else {
                return left;
            }
        }
    }
    NodePtr product()
    {
        NodePtr left = unary();
        for (;;) {
            if (accept('*')) {
                left = make(Node::Mul, left, unary());
            } else if (accept('/')) {
                left = make(Node::Div, left, unary());
            } else {
                return left;
            }
        }
    }
    NodePtr unary()
    {
        if (accept('-')) {
            return make(Node::Neg, unary());
        }
        if (accept('+')) {
            return unary();
        }
        return power();
    }
    NodePtr power()
    {
        NodePtr base = atom();
        if (accept('^')) {
            return make(Node::Pow, base, unary());
        }
        return base;
    }
    NodePtr atom()
    {
        skip();
        if (m_pos >= m_text.size()) {
            fail("the expression ends where a number, x1..x" + std::to_string(m_dim) +
                 ", a function or '(' was expected");
        }
        const char c = m_text[m_pos];
        if (c == '(') {
            ++m_pos;
            NodePtr inner = sum();
            if (!accept(')')) {
                fail("expected ')'");
            }
            return inner;
        }
        if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') {
            const char* begin = m_text.c_str() + m_pos;
            char* end = nullptr;
            const double v = std::strtod(begin, &end);
            if (end == begin) {
                fail("malformed number");
            }
            m_pos += static_cast<size_t>(end - begin);
            auto n = std::make_shared<Node>();
            n->value = v;
            return n;
        }
        if (std::isalpha(static_cast<unsigned char>(c))) {
            const size_t start = m_pos;
            while (m_pos < m_text.size() &&
                   std::isalnum(static_cast<unsigned char>(m_text[m_pos]))) {
                ++m_pos;
            }
            const std::string word = m_text.substr(start, m_pos - start);
            return named(word, start);
        }
        fail(std::string("unexpected '") + c + "'");
    }
    NodePtr named(const std::string& word, size_t start)
    {
        if (word == "pi") {
            auto n = std::make_shared<Node>();
            n->value = 3.14159265358979323846;
            return n;
        }
        if (word.size() > 1 && word[0] == 'x' &&
            word.find_first_not_of("0123456789", 1) == std::string::npos) {
            const int col = std::atoi(word.c_str() + 1);
            if (col < 1 || col > m_dim) {
                m_pos = start;
                fail(word + " is not a column: the data have " + std::to_string(m_dim) + " column" +
                     (m_dim == 1 ? "" : "s") + " (x1..x" + std::to_string(m_dim) + ")");
            }
            auto n = std::make_shared<Node>();
            n->kind = Node::Column;
            n->column = col - 1;
            return n;
        }
        static const std::vector<std::pair<const char*, double (*)(double)>> functions{
            {"exp", expOf}, {"log", logOf}, {"sqrt", sqrtOf},
            {"sin", sinOf}, {"cos", cosOf}, {"abs", absOf}};
        for (const auto& [name, fn] : functions) {
            if (word == name) {
                if (!accept('(')) {
                    fail("expected '(' after " + word);
                }
                auto n = std::make_shared<Node>();
                n->kind = Node::Call;
                n->function = fn;
                n->a = sum();
                if (!accept(')')) {
                    fail("expected ')'");
                }
                return n;
            }
        }
        m_pos = start;
        fail("unknown name '" + word + "' (use x1..x" + std::to_string(m_dim) +
             ", pi, exp, log, sqrt, sin, cos, abs)");
    }

    const std::string& m_text;
    int m_dim;
    const std::string& m_parameter;
    size_t m_pos = 0;
};

double eval(const Node& n, const Eigen::Ref<const Eigen::RowVectorXd>& row)
{
    switch (n.kind) {
    case Node::Number:
        return n.value;
    case Node::Column:
        return row(n.column);
    case Node::Add:
        return eval(*n.a, row) + eval(*n.b, row);
    case Node::Sub:
        return eval(*n.a, row) - eval(*n.b, row);
    case Node::Mul:
        return eval(*n.a, row) * eval(*n.b, row);
    case Node::Div:
        return eval(*n.a, row) / eval(*n.b, row);
    case Node::Pow:
        return std::pow(eval(*n.a, row), eval(*n.b, row));
    case Node::Neg:
        return -eval(*n.a, row);
    case Node::Call:
        return n.function(eval(*n.a, row));
    }
    return 0.0;
}

} // namespace

Expression Expression::parse(const std::string& text, int dim, const std::string& parameter)
{
    Parser p(text, dim, parameter);
    Expression e;
    e.m_root = p.parseAll();
    e.m_text = text;
    return e;
}

double Expression::operator()(const Eigen::Ref<const Eigen::RowVectorXd>& row) const
{
    return eval(*m_root, row);
}

Vector Expression::evaluate(const MatrixRef& x) const
{
    Vector out(x.rows());
    for (Eigen::Index i = 0; i < x.rows(); ++i) {
        out(i) = eval(*m_root, x.row(i));
    }
    return out;
}

} // namespace sosrep
