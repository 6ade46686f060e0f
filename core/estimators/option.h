// SPDX-License-Identifier: MIT
// Option specs and values: the tables the CLI, app and files read an estimator's options from.
#pragma once

#include <Eigen/Core>

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace sosrep {

class OptionValues;

/// The kinds of value an option holds.
enum class OptionType
{
    Integer,      // within [minimum, maximum]
    Real,         // finite, within [minimum, maximum]
    Choice,       // one of `choices`
    RealOrChoice, // one of `choices` (e.g. "auto") or a real number within [minimum, maximum]
    Seed          // an unsigned 64-bit integer
};

/// One user-settable parameter: everything a front end needs to offer it (a command-line flag,
/// a widget, a field of a model or project file) and everything core needs to check it.
///
/// `name` is the parameter's identity: settings, files and core's ParameterErrors use it
/// (snake_case, e.g. "learning_rate"); each front end spells it its own way (the command line
/// as --lr, the app with `label`).
struct OptionSpec
{
    std::string name;
    OptionType type = OptionType::Real;
    std::string defaultValue;    // canonical text
    std::string help;            // one line
    std::string label;           // short human label ("Learning rate λ")
    std::string group;           // "Kernel", "Length scale", "Solver", "Data", ...
    std::string flag;            // command-line spelling without "--" (default: name, '_' -> '-')
    std::string valueName = "X"; // placeholder in the command-line help
    double minimum = -1e308;
    double maximum = 1e308;
    bool minimumExclusive = false; // (minimum, maximum] instead of [minimum, maximum]
    std::string limitReason;       // why the maximum, said when it is exceeded
    std::vector<std::string> choices;
    bool logScale = false; // a slider over decades suits it
    /// When the option takes effect, given the other values and the training rows (e.g.
    /// --features only with the sdo kernel by random features). Empty: always.
    std::function<bool(const OptionValues&, Eigen::Index rows)> applies;
    /// When it applies, in words (for warnings about options given but unused).
    std::string appliesText;

    /// The command-line flag, "--" included.
    std::string cliFlag() const;
    /// Checks and canonicalizes a value given as text; throws ParameterError(name, ...).
    std::string canonical(const std::string& text) const;
};

using OptionTable = std::vector<OptionSpec>;

/// Builders for the common kinds of options (the remaining fields keep their defaults).
/// `head` is {name, label, group, value name for the command line}.
struct OptionHead
{
    std::string name;
    std::string label;
    std::string group;
    std::string valueName = "X";
};
OptionSpec choiceOption(const OptionHead& head, std::vector<std::string> choices,
                        std::string defaultValue, std::string help);
OptionSpec integerOption(const OptionHead& head, long long defaultValue, double minimum,
                         double maximum, std::string help, std::string limitReason = {});
/// A real number > minimum (exclusive) or >= minimum, optionally with choices (RealOrChoice).
OptionSpec realOption(const OptionHead& head, std::string defaultValue, double minimum,
                      bool minimumExclusive, std::string help,
                      std::vector<std::string> choices = {});

/// Values of a set of options, kept as canonical text and checked against their specs when set.
class OptionValues
{
public:
    OptionValues() = default;
    /// Every option of `table` at its default.
    explicit OptionValues(const OptionTable& table);

    /// Adds the options of `table` that are not there yet, at their defaults.
    void addDefaults(const OptionTable& table);
    /// Drops values whose option is not in `table`.
    void keepOnly(const OptionTable& table);

    /// Sets a value from text (checked and canonicalized; ParameterError naming the option).
    void set(const std::string& name, const std::string& text);
    void setReal(const std::string& name, double value);
    void setInteger(const std::string& name, long long value);

    bool has(const std::string& name) const { return m_values.count(name) > 0; }
    const std::string& text(const std::string& name) const;
    double real(const std::string& name) const;
    int integer(const std::string& name) const;
    uint64_t seed(const std::string& name) const;
    /// For RealOrChoice: true when the value is one of the choices, not a number.
    bool isChoice(const std::string& name) const;

    const std::map<std::string, std::string>& all() const { return m_values; }
    const OptionSpec* spec(const std::string& name) const;

    bool operator==(const OptionValues& o) const { return m_values == o.m_values; }
    bool operator!=(const OptionValues& o) const { return !(*this == o); }

private:
    std::map<std::string, std::string> m_values;
    std::map<std::string, OptionSpec> m_specs;
};

/// The shortest text that reads back as the same double ("0.1", "1e-08").
std::string formatReal(double v);

} // namespace sosrep
