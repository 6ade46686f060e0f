// SPDX-License-Identifier: MIT
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
    std::vector<std::pair<std::string, std::string>> owners; // estimator, default
    bool common = false;
};

/// Every option of every registered estimator, common ones first, in table order.
std::vector<Flag> allFlags()
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
                it->owners.emplace_back(owner, s.defaultValue);
            }
        }
    };
    add(dataOptions(), "", true);
    add(kernelOptions(), "", true);
    add(tuningOptions(), "", true);
    for (const Estimator* e : EstimatorRegistry::instance().all()) {
        add(e->options(), e->name(), false);
    }
    return flags;
}

QString helpOf(const Flag& f)
{
    QString help = QString::fromStdString(f.spec.help);
    if (!f.common) {
        QStringList owners;
        for (const auto& o : f.owners) {
            owners << QString::fromStdString(o.first);
        }
        help = QLatin1Char('[') + owners.join(QLatin1Char(',')) + QStringLiteral("] ") + help;
    }
    bool same = true;
    for (const auto& o : f.owners) {
        same = same && o.second == f.spec.defaultValue;
    }
    if (same) {
        return help + QStringLiteral(" (default ") + QString::fromStdString(f.spec.defaultValue) +
               QLatin1Char(')');
    }
    QStringList defaults;
    for (const auto& o : f.owners) {
        defaults << QString::fromStdString(o.first + " " + o.second);
    }
    return help + QStringLiteral(" (default ") + defaults.join(QStringLiteral(", ")) +
           QLatin1Char(')');
}

QString flagName(const OptionSpec& s)
{
    return QString::fromStdString(s.cliFlag().substr(2));
}

} // namespace

void addEstimatorOptions(QCommandLineParser& p)
{
    QStringList names;
    for (const Estimator* e : EstimatorRegistry::instance().all()) {
        names << QString::fromStdString(e->name());
    }
    addValueOption(p, QStringLiteral("estimator"),
                   names.join(QLatin1Char('|')) + QStringLiteral(" (default sosrep)"),
                   QStringLiteral("E"));
    for (const Flag& f : allFlags()) {
        addValueOption(p, flagName(f.spec), helpOf(f), QString::fromStdString(f.spec.valueName));
    }
}

FitSettings settingsFromOptions(const Options& o, long long trainRows,
                                std::vector<std::string>* warnings)
{
    FitSettings s = FitSettings::defaults(
        o.text(QStringLiteral("estimator"), QStringLiteral("sosrep")).toStdString());
    std::vector<std::string> given;
    for (const Flag& f : allFlags()) {
        const QString flag = flagName(f.spec);
        if (!o.has(flag)) {
            continue;
        }
        if (!s.values.has(f.spec.name)) {
            warnings->push_back(f.spec.cliFlag() + " is ignored: the " + s.estimator +
                                " estimator has no such option");
            continue;
        }
        s.values.set(f.spec.name, o.text(flag).toStdString());
        given.push_back(f.spec.name);
    }
    for (const std::string& name : ignoredOptions(s, given, trainRows)) {
        const OptionSpec* spec = s.values.spec(name);
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
    for (const Flag& f : allFlags()) {
        if (f.spec.name == parameter) {
            return f.spec.cliFlag();
        }
    }
    std::string flag = parameter;
    std::replace(flag.begin(), flag.end(), '_', '-');
    return "--" + flag;
}

} // namespace sosrep::cli
