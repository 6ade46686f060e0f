// SPDX-License-Identifier: MIT
// `sosrep adbench`: leave-one-dataset-out and leave-one-family-out choice of a rule.
#include "app/cli/adbench_protocol.h"

#include "app/cli/adbench_table.h"

#include "core/errors.h"

#include <QJsonArray>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace sosrep::cli {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

double mean(const std::vector<double>& v)
{
    return v.empty() ? kNaN : std::accumulate(v.begin(), v.end(), 0.0) / double(v.size());
}

QString fixed(double v, int decimals = 4)
{
    return std::isfinite(v) ? QString::number(v, 'f', decimals) : QStringLiteral("-");
}

/// Datasets (indices) where every candidate has a value.
std::vector<int> complete(const std::vector<std::vector<double>>& means)
{
    std::vector<int> out;
    for (size_t d = 0; !means.empty() && d < means.front().size(); ++d) {
        if (std::all_of(means.begin(), means.end(),
                        [&](const auto& m) { return std::isfinite(m[d]); })) {
            out.push_back(int(d));
        }
    }
    return out;
}

/// The candidate with the best mean over `over` (ties: the first, i.e. the order given).
int bestOver(const std::vector<std::vector<double>>& means, const std::vector<int>& over)
{
    int best = 0;
    double bestMean = -std::numeric_limits<double>::infinity();
    for (size_t m = 0; m < means.size(); ++m) {
        double s = 0.0;
        for (int d : over) {
            s += means[m][size_t(d)];
        }
        const double v = over.empty() ? 0.0 : s / double(over.size());
        if (v > bestMean) {
            bestMean = v;
            best = int(m);
        }
    }
    return best;
}

/// Leave-one-dataset-out on one table of means: the pick and held-out AUC per dataset of
/// `usable`.
void leaveOneOut(const std::vector<std::vector<double>>& means, const std::vector<int>& usable,
                 std::vector<int>* picks, std::vector<double>* aucs)
{
    for (int held : usable) {
        std::vector<int> rest;
        std::copy_if(usable.begin(), usable.end(), std::back_inserter(rest),
                     [held](int d) { return d != held; });
        const int m = bestOver(means, rest);
        picks->push_back(m);
        aucs->push_back(means[size_t(m)][size_t(held)]);
    }
}

} // namespace

QStringList DatasetFamilies::familyNames() const
{
    QStringList out;
    for (const QString& f : families) {
        if (!out.contains(f)) {
            out << f;
        }
    }
    return out;
}

QStringList DatasetFamilies::datasetsOf(const QString& family) const
{
    QStringList out;
    for (int i = 0; i < datasets.size(); ++i) {
        if (families[i] == family) {
            out << datasets[i];
        }
    }
    return out;
}

std::vector<FamilySummary> summarizeFamilies(const std::vector<AdbenchRow>& rows,
                                             const QStringList& methods,
                                             const DatasetFamilies& data, const QString& reference,
                                             double margin)
{
    std::vector<FamilySummary> out;
    for (const QString& family : data.familyNames()) {
        const QStringList sets = data.datasetsOf(family);
        const auto roc = datasetMeans(rows, methods, sets);
        const auto ranks = datasetRanks(roc);
        const int ref = methods.indexOf(reference);
        for (int m = 0; m < methods.size(); ++m) {
            FamilySummary s;
            s.family = family;
            s.method = methods[m];
            std::vector<double> v;
            int below = 0;
            for (int d = 0; d < sets.size(); ++d) {
                const double a = roc[size_t(m)][size_t(d)];
                if (!std::isfinite(a)) {
                    continue;
                }
                v.push_back(a);
                if (ref >= 0 && std::isfinite(roc[size_t(ref)][size_t(d)]) &&
                    a < roc[size_t(ref)][size_t(d)] - margin) {
                    ++below;
                }
            }
            s.datasets = int(v.size());
            s.meanAucRoc = mean(v);
            s.medianAucRoc = medianOf(v);
            s.farBelowReference = ref >= 0 ? below : -1;
            if (ref >= 0) {
                s.vsReference = pairedComparison(roc[size_t(m)], roc[size_t(ref)]);
            }
            std::vector<double> gaps;
            for (double g : hindsightGaps(rows, methods[m], sets)) {
                if (std::isfinite(g)) {
                    gaps.push_back(g);
                }
            }
            s.hindsightGap = mean(gaps);
            const std::vector<int> all = complete(roc);
            s.averageRank = all.empty() ? std::nan("") : 0.0;
            for (int d : all) {
                s.averageRank += ranks[size_t(m)][size_t(d)] / double(all.size());
            }
            out.push_back(s);
        }
    }
    return out;
}

ProtocolReport selectionProtocol(const std::vector<AdbenchRow>& rows, const QStringList& candidates,
                                 const DatasetFamilies& data, const std::vector<uint64_t>& seeds)
{
    ProtocolReport r;
    r.candidates = candidates;
    const auto means = datasetMeans(rows, candidates, data.datasets);
    const std::vector<int> usable = complete(means);
    if (usable.size() < 2) {
        throw ParameterError("--lodo", "needs at least two datasets where every method of the "
                                       "family has a result");
    }
    std::vector<int> picks;
    leaveOneOut(means, usable, &picks, &r.lodoAuc);
    for (int p : picks) {
        r.lodoPicks << candidates[p];
    }
    r.lodoMean = mean(r.lodoAuc);
    for (const QString& family : data.familyNames()) {
        std::vector<double> in;
        for (size_t k = 0; k < usable.size(); ++k) {
            if (data.families[usable[k]] == family) {
                in.push_back(r.lodoAuc[k]);
            }
        }
        if (!in.empty()) {
            r.lodoByFamily.emplace_back(family, mean(in));
        }
    }
    for (uint64_t seed : seeds) {
        std::vector<AdbenchRow> one;
        std::copy_if(rows.begin(), rows.end(), std::back_inserter(one),
                     [seed](const AdbenchRow& x) { return x.seed == seed; });
        const auto m = datasetMeans(one, candidates, data.datasets);
        const std::vector<int> u = complete(m);
        if (u.size() < 2) {
            continue;
        }
        std::vector<int> p;
        std::vector<double> a;
        leaveOneOut(m, u, &p, &a);
        r.seeds.push_back(seed);
        r.lodoPerSeed.push_back(mean(a));
    }
    for (const QString& family : data.familyNames()) {
        std::vector<int> inside, outside;
        for (int d : usable) {
            (data.families[d] == family ? inside : outside).push_back(d);
        }
        ProtocolReport::FamilyOut f;
        f.family = family;
        f.datasets = int(inside.size());
        if (!outside.empty() && !inside.empty()) {
            const int m = bestOver(means, outside);
            f.pick = candidates[m];
            std::vector<double> v;
            for (int d : inside) {
                v.push_back(means[size_t(m)][size_t(d)]);
            }
            f.mean = mean(v);
            f.median = medianOf(v);
        }
        r.lofo.push_back(f);
    }
    return r;
}

QString protocolText(const ProtocolReport& r)
{
    QString t;
    t += QStringLiteral("\nselection protocol over {") + r.candidates.join(QStringLiteral("; ")) +
         QStringLiteral("}: every number below comes from datasets the choice did not see\n");
    t += QStringLiteral("leave-one-dataset-out: mean AUC-ROC ") + fixed(r.lodoMean) +
         QStringLiteral(" over ") + QString::number(r.lodoAuc.size()) + QStringLiteral(" datasets");
    if (r.lodoByFamily.size() > 1) {
        QStringList parts;
        for (const auto& [family, v] : r.lodoByFamily) {
            parts << family + QLatin1Char(' ') + fixed(v);
        }
        t += QStringLiteral(" (") + parts.join(QStringLiteral(", ")) + QLatin1Char(')');
    }
    t += QLatin1Char('\n');
    QStringList counts;
    for (const QString& c : r.candidates) {
        const int n = int(r.lodoPicks.count(c));
        if (n > 0) {
            counts << c + QStringLiteral(" ×") + QString::number(n);
        }
    }
    t += QStringLiteral("  chosen: ") + counts.join(QStringLiteral(", ")) + QLatin1Char('\n');
    if (!r.lodoPerSeed.empty()) {
        QStringList parts;
        for (size_t i = 0; i < r.seeds.size(); ++i) {
            parts << QString::number(r.seeds[i]) + QLatin1Char(' ') + fixed(r.lodoPerSeed[i]);
        }
        const double m = mean(r.lodoPerSeed);
        double ss = 0.0;
        for (double v : r.lodoPerSeed) {
            ss += (v - m) * (v - m);
        }
        const double sd =
            r.lodoPerSeed.size() > 1 ? std::sqrt(ss / double(r.lodoPerSeed.size() - 1)) : 0.0;
        t += QStringLiteral("  per seed: ") + parts.join(QStringLiteral(", ")) +
             QStringLiteral(" (mean ") + fixed(m) + QStringLiteral(", sd ") + fixed(sd) +
             QStringLiteral(")\n");
    }
    for (const ProtocolReport::FamilyOut& f : r.lofo) {
        if (f.pick.isEmpty()) {
            continue;
        }
        t += QStringLiteral("leave-one-family-out: ") + f.family +
             QStringLiteral(" (chosen on the other families: ") + f.pick +
             QStringLiteral("): mean AUC-ROC ") + fixed(f.mean) + QStringLiteral(", median ") +
             fixed(f.median) + QStringLiteral(" over ") + QString::number(f.datasets) +
             QStringLiteral(" datasets\n");
    }
    return t;
}

QJsonObject protocolJson(const ProtocolReport& r)
{
    QJsonArray lodo;
    for (int i = 0; i < r.lodoPicks.size(); ++i) {
        lodo.append(QJsonObject{{QStringLiteral("pick"), r.lodoPicks[i]},
                                {QStringLiteral("auc_roc"), r.lodoAuc[size_t(i)]}});
    }
    QJsonArray perSeed;
    for (size_t i = 0; i < r.seeds.size(); ++i) {
        perSeed.append(QJsonObject{{QStringLiteral("seed"), QString::number(r.seeds[i])},
                                   {QStringLiteral("auc_roc"), r.lodoPerSeed[i]}});
    }
    QJsonArray lofo;
    for (const ProtocolReport::FamilyOut& f : r.lofo) {
        lofo.append(
            QJsonObject{{QStringLiteral("family"), f.family},
                        {QStringLiteral("pick"), f.pick},
                        {QStringLiteral("datasets"), f.datasets},
                        {QStringLiteral("mean_auc_roc"), f.pick.isEmpty() ? 0.0 : f.mean},
                        {QStringLiteral("median_auc_roc"), f.pick.isEmpty() ? 0.0 : f.median}});
    }
    QJsonObject byFamily;
    for (const auto& [family, v] : r.lodoByFamily) {
        byFamily[family] = v;
    }
    return QJsonObject{{QStringLiteral("candidates"), QJsonArray::fromStringList(r.candidates)},
                       {QStringLiteral("leave_one_dataset_out"), lodo},
                       {QStringLiteral("leave_one_dataset_out_mean"), r.lodoMean},
                       {QStringLiteral("leave_one_dataset_out_by_family"), byFamily},
                       {QStringLiteral("leave_one_dataset_out_per_seed"), perSeed},
                       {QStringLiteral("leave_one_family_out"), lofo}};
}

QString familySummaryText(const std::vector<FamilySummary>& summary, const QString& reference,
                          double margin)
{
    QString t =
        QStringLiteral("\nfamily\tmethod\tdatasets\tmean_auc_roc\tmedian_auc_roc\taverage_rank"
                       "\thindsight_gap");
    if (!reference.isEmpty()) {
        t += QStringLiteral("\tbelow_") + reference + QStringLiteral("_by_") +
             QString::number(margin, 'g', 3) + QStringLiteral("\tminus_") + reference +
             QStringLiteral("\tpaired_bootstrap_95\twon_lost_by_0.05");
    }
    t += QLatin1Char('\n');
    const auto signedText = [](double v) {
        return std::isfinite(v) ? (v >= 0 ? QStringLiteral("+") : QString()) + fixed(v)
                                : QStringLiteral("-");
    };
    for (const FamilySummary& s : summary) {
        t += s.family + QLatin1Char('\t') + s.method + QLatin1Char('\t') +
             QString::number(s.datasets) + QLatin1Char('\t') + fixed(s.meanAucRoc) +
             QLatin1Char('\t') + fixed(s.medianAucRoc) + QLatin1Char('\t') +
             (std::isfinite(s.averageRank) ? QString::number(s.averageRank, 'f', 2)
                                           : QStringLiteral("-")) +
             QLatin1Char('\t') + fixed(s.hindsightGap);
        if (!reference.isEmpty()) {
            const PairedComparison& c = s.vsReference;
            t += QLatin1Char('\t') + QString::number(s.farBelowReference) + QLatin1Char('\t') +
                 signedText(c.meanDifference) + QLatin1Char('\t') + QLatin1Char('[') +
                 signedText(c.low) + QStringLiteral(", ") + signedText(c.high) + QLatin1Char(']') +
                 QLatin1Char('\t') + QString::number(c.won) + QLatin1Char('/') +
                 QString::number(c.lost);
        }
        t += QLatin1Char('\n');
    }
    return t;
}

QJsonObject familySummaryJson(const std::vector<FamilySummary>& summary, const QString& reference)
{
    QJsonArray a;
    for (const FamilySummary& s : summary) {
        QJsonObject o{{QStringLiteral("family"), s.family},
                      {QStringLiteral("method"), s.method},
                      {QStringLiteral("datasets"), s.datasets},
                      {QStringLiteral("mean_auc_roc"), s.meanAucRoc},
                      {QStringLiteral("median_auc_roc"), s.medianAucRoc}};
        if (std::isfinite(s.averageRank)) {
            o[QStringLiteral("average_rank")] = s.averageRank;
        }
        if (std::isfinite(s.hindsightGap)) {
            o[QStringLiteral("hindsight_gap")] = s.hindsightGap;
        }
        if (s.farBelowReference >= 0) {
            const PairedComparison& c = s.vsReference;
            o[QStringLiteral("far_below_reference")] = s.farBelowReference;
            QJsonObject vs{{QStringLiteral("datasets"), c.datasets},
                           {QStringLiteral("won_by_0.05"), c.won},
                           {QStringLiteral("lost_by_0.05"), c.lost}};
            if (std::isfinite(c.meanDifference)) {
                vs[QStringLiteral("mean_difference")] = c.meanDifference;
            }
            if (std::isfinite(c.low)) {
                vs[QStringLiteral("paired_bootstrap_95")] = QJsonArray{c.low, c.high};
            }
            o[QStringLiteral("vs_reference")] = vs;
        }
        a.append(o);
    }
    return QJsonObject{{QStringLiteral("reference"), reference}, {QStringLiteral("methods"), a}};
}

std::vector<ReferenceLoss> referenceLosses(const std::vector<AdbenchRow>& rows,
                                           const QStringList& methods, const DatasetFamilies& data,
                                           const QString& reference, double margin)
{
    std::vector<ReferenceLoss> out;
    const int ref = methods.indexOf(reference);
    if (ref < 0) {
        return out;
    }
    for (const QString& family : data.familyNames()) {
        const QStringList sets = data.datasetsOf(family);
        const auto roc = datasetMeans(rows, methods, sets);
        for (int d = 0; d < sets.size(); ++d) {
            for (int m = 0; m < methods.size(); ++m) {
                const double a = roc[size_t(m)][size_t(d)], r = roc[size_t(ref)][size_t(d)];
                if (m == ref || !std::isfinite(a) || !std::isfinite(r) || a >= r - margin) {
                    continue;
                }
                const std::vector<double> gaps = hindsightGaps(rows, methods[m], {sets[d]});
                out.push_back({family, sets[d], methods[m], a, r, a + gaps.front()});
            }
        }
    }
    return out;
}

QString referenceLossText(const std::vector<ReferenceLoss>& losses, const QString& reference,
                          double margin)
{
    if (losses.empty()) {
        return {};
    }
    QString t = QStringLiteral("\nlosses by more than ") + QString::number(margin, 'g', 3) +
                QStringLiteral(" against ") + reference +
                QStringLiteral(" (per-dataset means over seeds)\nfamily\tdataset\tmethod\t"
                               "auc_roc\t") +
                reference + QStringLiteral("\tdifference\tbest_grid_auc_roc\n");
    for (const ReferenceLoss& l : losses) {
        t += l.family + QLatin1Char('\t') + l.dataset + QLatin1Char('\t') + l.method +
             QLatin1Char('\t') + fixed(l.aucRoc) + QLatin1Char('\t') + fixed(l.reference) +
             QLatin1Char('\t') + fixed(l.aucRoc - l.reference) + QLatin1Char('\t') +
             fixed(l.bestGridAuc) + QLatin1Char('\n');
    }
    return t;
}

QJsonArray referenceLossJson(const std::vector<ReferenceLoss>& losses)
{
    QJsonArray a;
    for (const ReferenceLoss& l : losses) {
        QJsonObject o{{QStringLiteral("family"), l.family},
                      {QStringLiteral("dataset"), l.dataset},
                      {QStringLiteral("method"), l.method},
                      {QStringLiteral("auc_roc"), l.aucRoc},
                      {QStringLiteral("reference_auc_roc"), l.reference}};
        if (std::isfinite(l.bestGridAuc)) {
            o[QStringLiteral("best_grid_auc_roc")] = l.bestGridAuc;
        }
        a.append(o);
    }
    return a;
}

} // namespace sosrep::cli
