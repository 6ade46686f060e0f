// SPDX-License-Identifier: MIT
// The estimators' option tables as command-line flags, and FitSettings from a command line.
#include "app/cli/fit_options.h"

#include "core/errors.h"
#include "core/estimators/common_options.h"
#include "core/estimators/registry.h"

#include <algorithm>
#include <map>

namespace sosrep::cli {
namespace {

/// One command-line option and the estimators that have it (with their defaults).
struct Flag
{
    OptionSpec spec;
    struct Owner
    {
        std::string estimator;
        std::string defaultValue;
        std::string help;
    };
    std::vector<Owner> owners;
    bool common = false;
};

/// Every option of every registered estimator, common ones first, in table order.
std::vector<Flag> allFlags(bool ratios)
{
    std::vector<Flag> flags;
    auto add = [&](const OptionTable& table, const std::string& owner, bool common) {
        for (const OptionSpec& s : table) {
            auto it = std::find_if(flags.begin(), flags.end(),
                                   [&](const Flag& f) { return f.spec.name == s.name; });
            if (it == flags.end()) {
                flags.push_back({s, {}, common});
                it = flags.end() - 1;
            }
            if (!common) {
                it->owners.push_back({owner, s.defaultValue, s.help});
            }
        }
    };
    add(dataOptions(), "", true);
    if (!ratios) {
        add(kernelOptions(), "", true);
        add(tuningOptions(), "", true);
    }
    for (const Estimator* e : EstimatorRegistry::instance().family(ratios)) {
        add(e->options(), e->name(), false);
    }
    return flags;
}

QString helpOf(const Flag& f)
{
    if (f.common) {
        return QString::fromStdString(f.spec.help + " (default " + f.spec.defaultValue + ")");
    }
    // Estimators that share a flag may mean different things by it: one entry per distinct
    // help text, each naming its estimators and their defaults.
    std::vector<std::pair<std::string, std::vector<const Flag::Owner*>>> groups;
    for (const Flag::Owner& o : f.owners) {
        auto it = std::find_if(groups.begin(), groups.end(),
                               [&](const auto& g) { return g.first == o.help; });
        if (it == groups.end()) {
            groups.push_back({o.help, {}});
            it = groups.end() - 1;
        }
        it->second.push_back(&o);
    }
    QStringList parts;
    for (const auto& [help, owners] : groups) {
        QStringList names;
        QStringList defaults;
        bool same = true;
        for (const Flag::Owner* o : owners) {
            names << QString::fromStdString(o->estimator);
            defaults << QString::fromStdString(o->estimator + " " + o->defaultValue);
            same = same && o->defaultValue == owners.front()->defaultValue;
        }
        const QString def = same ? QString::fromStdString(owners.front()->defaultValue)
                                 : defaults.join(QStringLiteral(", "));
        parts << QLatin1Char('[') + names.join(QLatin1Char(',')) + QStringLiteral("] ") +
                     QString::fromStdString(help) + QStringLiteral(" (default ") + def +
                     QLatin1Char(')');
    }
    return parts.join(QStringLiteral("; "));
}

QString flagName(const OptionSpec& s)
{
    return QString::fromStdString(s.cliFlag().substr(2));
}

} // namespace

void addEstimatorOptions(QCommandLineParser& p, bool ratios)
{
    QStringList names;
    for (const Estimator* e : EstimatorRegistry::instance().family(ratios)) {
        names << QString::fromStdString(e->name());
    }
    addValueOption(p, QStringLiteral("estimator"),
                   names.join(QLatin1Char('|')) + QStringLiteral(" (default ") +
                       (ratios ? QStringLiteral("fire)") : QStringLiteral("sosrep)")),
                   QStringLiteral("E"));
    for (const Flag& f : allFlags(ratios)) {
        addValueOption(p, flagName(f.spec), helpOf(f), QString::fromStdString(f.spec.valueName));
    }
}

std::vector<std::string> applyGivenOptions(const Options& o, FitSettings& s,
                                           std::vector<std::string>* notHeld, bool ratios)
{
    std::vector<std::string> given;
    for (const Flag& f : allFlags(ratios)) {
        const QString flag = flagName(f.spec);
        if (!o.has(flag)) {
            continue;
        }
        if (!s.values.has(f.spec.name)) {
            notHeld->push_back(f.spec.name);
            continue;
        }
        s.values.set(f.spec.name, o.text(flag).toStdString());
        given.push_back(f.spec.name);
    }
    return given;
}

FitSettings settingsFromOptions(const Options& o, long long trainRows,
                                std::vector<std::string>* warnings, bool ratios,
                                const std::string& taskPurpose)
{
    const std::string name = o.text(QStringLiteral("estimator"),
                                    ratios ? QStringLiteral("fire") : QStringLiteral("sosrep"))
                                 .toStdString();
    EstimatorRegistry::instance().getOf(ratios, name);
    FitSettings s = FitSettings::defaults(name);
    std::vector<std::string> notHeld;
    const std::vector<std::string> given = applyGivenOptions(o, s, &notHeld, ratios);
    for (const std::string& option : notHeld) {
        const std::string flag = cliSpelling(option);
        if (option == "purpose") {
            // A purpose chooses how l is tuned: asking for one where there is no l to tune is a
            // mistake to say, not a flag to ignore.
            throw ParameterError(flag,
                                 "the " + s.estimator + " estimator has no length scale to tune");
        }
        warnings->push_back(flag + " is ignored: the " + s.estimator +
                            " estimator has no such option");
    }
    if (!taskPurpose.empty()) {
        s.resolvePurpose(taskPurpose);
    }
    for (const std::string& option : ignoredOptions(s, given, trainRows)) {
        const OptionSpec* spec = s.values.spec(option);
        warnings->push_back(spec->cliFlag() + " is ignored: " + spec->appliesText);
    }
    return s;
}

std::string cliSpelling(const std::string& parameter)
{
    if (parameter.rfind("--", 0) == 0) {
        return parameter;
    }
    if (parameter == "estimator") {
        return "--estimator";
    }
    for (const Flag& f : allFlags(false)) {
        if (f.spec.name == parameter) {
            return f.spec.cliFlag();
        }
    }
    for (const Flag& f : allFlags(true)) {
        if (f.spec.name == parameter) {
            return f.spec.cliFlag();
        }
    }
    std::string flag = parameter;
    std::replace(flag.begin(), flag.end(), '_', '-');
    return "--" + flag;
}

} // namespace sosrep::cli
