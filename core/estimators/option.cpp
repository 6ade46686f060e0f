// SPDX-License-Identifier: MIT
// Option specs and values: the tables the CLI, app and files read an estimator's options from.
#include "core/estimators/option.h"

#include "core/errors.h"
#include "core/util/text.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace sosrep {
namespace {

std::string joined(const std::vector<std::string>& v)
{
    std::string s;
    for (size_t i = 0; i < v.size(); ++i) {
        s += (i == 0 ? "" : i + 1 == v.size() ? " or " : ", ") + v[i];
    }
    return s;
}

bool parseReal(const std::string& text, double* v)
{
    const char* b = text.data();
    const char* e = b + text.size();
    if (b != e && *b == '+') {
        ++b;
    }
    const auto r = std::from_chars(b, e, *v);
    return r.ec == std::errc() && r.ptr == e && std::isfinite(*v);
}

} // namespace

std::string formatReal(double v)
{
    char buf[32];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, r.ptr);
}

namespace {

OptionSpec headed(const OptionHead& head, OptionType type, std::string help)
{
    OptionSpec s;
    s.name = head.name;
    s.label = head.label;
    s.group = head.group;
    s.valueName = head.valueName;
    s.type = type;
    s.help = std::move(help);
    return s;
}

} // namespace

OptionSpec choiceOption(const OptionHead& head, std::vector<std::string> choices,
                        std::string defaultValue, std::string help)
{
    OptionSpec s = headed(head, OptionType::Choice, std::move(help));
    s.choices = std::move(choices);
    s.defaultValue = std::move(defaultValue);
    return s;
}

OptionSpec integerOption(const OptionHead& head, long long defaultValue, double minimum,
                         double maximum, std::string help, std::string limitReason)
{
    OptionSpec s = headed(head, OptionType::Integer, std::move(help));
    s.defaultValue = std::to_string(defaultValue);
    s.minimum = minimum;
    s.maximum = maximum;
    s.limitReason = std::move(limitReason);
    return s;
}

OptionSpec realOption(const OptionHead& head, std::string defaultValue, double minimum,
                      bool minimumExclusive, std::string help, std::vector<std::string> choices)
{
    OptionSpec s = headed(head, choices.empty() ? OptionType::Real : OptionType::RealOrChoice,
                          std::move(help));
    s.defaultValue = std::move(defaultValue);
    s.minimum = minimum;
    s.minimumExclusive = minimumExclusive;
    s.choices = std::move(choices);
    return s;
}

std::string OptionSpec::cliFlag() const
{
    std::string f = flag.empty() ? name : flag;
    std::replace(f.begin(), f.end(), '_', '-');
    return "--" + f;
}

std::string OptionSpec::canonical(const std::string& text) const
{
    auto inRange = [&](double v) {
        const bool low = minimumExclusive ? v > minimum : v >= minimum;
        if (!low || v > maximum) {
            std::string range = (minimumExclusive ? "(" : "[") + formatReal(minimum) + ", " +
                                formatReal(maximum) + "]";
            if (maximum >= 1e308) {
                range = minimumExclusive ? (minimum == 0.0 ? std::string("positive")
                                                           : "> " + formatReal(minimum))
                                         : "at least " + formatReal(minimum);
            }
            throw ParameterError(name,
                                 "must be " + (maximum >= 1e308 ? range : "in " + range) +
                                     (v > maximum && !limitReason.empty() ? " (" + limitReason + ")"
                                                                          : std::string()) +
                                     ", got " + formatReal(v));
        }
    };
    switch (type) {
    case OptionType::Choice:
    case OptionType::RealOrChoice:
        if (std::find(choices.begin(), choices.end(), text) != choices.end()) {
            return text;
        }
        if (type == OptionType::Choice) {
            throw ParameterError(name, "unknown value " + quotedText(text) + " (use " +
                                           joined(choices) + ")");
        }
        [[fallthrough]];
    case OptionType::Real: {
        double v = 0.0;
        if (!parseReal(text, &v)) {
            throw ParameterError(
                name,
                "expected a number" +
                    (type == OptionType::RealOrChoice ? " or " + joined(choices) : std::string()) +
                    ", got " + quotedText(text));
        }
        inRange(v);
        return formatReal(v);
    }
    case OptionType::Integer: {
        long long v = 0;
        const auto r = std::from_chars(text.data(), text.data() + text.size(), v);
        if (r.ec != std::errc() || r.ptr != text.data() + text.size()) {
            throw ParameterError(name, "expected an integer, got " + quotedText(text));
        }
        if (double(v) < minimum) {
            throw ParameterError(name, "must be at least " +
                                           std::to_string(static_cast<long long>(minimum)));
        }
        if (double(v) > maximum) {
            throw ParameterError(name, "must be at most " +
                                           std::to_string(static_cast<long long>(maximum)) +
                                           (limitReason.empty() ? "" : " (" + limitReason + ")"));
        }
        return std::to_string(v);
    }
    case OptionType::Seed: {
        uint64_t v = 0;
        const auto r = std::from_chars(text.data(), text.data() + text.size(), v);
        if (r.ec != std::errc() || r.ptr != text.data() + text.size()) {
            throw ParameterError(name,
                                 "expected a non-negative integer seed, got " + quotedText(text));
        }
        return std::to_string(v);
    }
    }
    return text;
}

OptionValues::OptionValues(const OptionTable& table)
{
    addDefaults(table);
}

void OptionValues::addDefaults(const OptionTable& table)
{
    for (const OptionSpec& s : table) {
        if (m_specs.count(s.name) == 0) {
            m_specs[s.name] = s;
            m_values[s.name] = s.canonical(s.defaultValue);
        }
    }
}

void OptionValues::keepOnly(const OptionTable& table)
{
    std::map<std::string, std::string> values;
    std::map<std::string, OptionSpec> specs;
    for (const OptionSpec& s : table) {
        if (m_values.count(s.name)) {
            values[s.name] = m_values[s.name];
            specs[s.name] = m_specs[s.name];
        }
    }
    m_values.swap(values);
    m_specs.swap(specs);
}

const OptionSpec* OptionValues::spec(const std::string& name) const
{
    const auto it = m_specs.find(name);
    return it == m_specs.end() ? nullptr : &it->second;
}

void OptionValues::set(const std::string& name, const std::string& text)
{
    const OptionSpec* s = spec(name);
    if (!s) {
        throw ParameterError(name, "is not an option here");
    }
    m_values[name] = s->canonical(text);
}

void OptionValues::setReal(const std::string& name, double value)
{
    set(name, formatReal(value));
}

void OptionValues::setInteger(const std::string& name, long long value)
{
    set(name, std::to_string(value));
}

const std::string& OptionValues::text(const std::string& name) const
{
    const auto it = m_values.find(name);
    if (it == m_values.end()) {
        throw std::logic_error("OptionValues: no option '" + name + "'");
    }
    return it->second;
}

double OptionValues::real(const std::string& name) const
{
    double v = 0.0;
    if (!parseReal(text(name), &v)) {
        throw std::logic_error("OptionValues: '" + name + "' is not a number");
    }
    return v;
}

int OptionValues::integer(const std::string& name) const
{
    return std::stoi(text(name));
}

uint64_t OptionValues::seed(const std::string& name) const
{
    return std::stoull(text(name));
}

bool OptionValues::isChoice(const std::string& name) const
{
    const OptionSpec* s = spec(name);
    return s && std::find(s->choices.begin(), s->choices.end(), text(name)) != s->choices.end();
}

} // namespace sosrep
