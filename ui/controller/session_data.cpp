// SPDX-License-Identifier: MIT
// The session's data: roles guessed from column names, features prepared in the views' scalings.
#include "ui/controller/session_data.h"

#include "ui/controller/view_scaling.h"

#include "core/data/preparation.h"
#include "core/errors.h"
#include "core/estimators/common_options.h"
#include "ui/controller/option_labels.h"

#include <algorithm>

namespace sosrep::ui {
namespace {

bool looksLikeLabel(const std::string& name, const Eigen::VectorXd& col)
{
    // The names ADBench, PyOD, ODDS and scikit-learn users give a 0/1 ground truth.
    static const char* names[] = {
        "label",      "y",         "class",  "outlier",      "is_outlier",   "anomaly",
        "is_anomaly", "anomalous", "target", "ground_truth", "outlier_label"};
    bool named = false;
    for (const char* n : names) {
        named = named ||
                QString::fromStdString(name).compare(QLatin1String(n), Qt::CaseInsensitive) == 0;
    }
    return named && ((col.array() == 0.0) || (col.array() == 1.0)).all();
}

/// A numeric column named as pandas, R and spreadsheets name a row's id: its values name the
/// rows rather than measure them.
bool looksLikeRowName(const std::string& name)
{
    for (const char* n : {"id", "index", "row", "row_id", "rowid", "row_name", "unnamed: 0"}) {
        if (QString::fromStdString(name).compare(QLatin1String(n), Qt::CaseInsensitive) == 0) {
            return true;
        }
    }
    return false;
}

QVector<ColumnRole> guessedRoles(const Dataset& raw)
{
    QVector<ColumnRole> roles;
    bool named = !raw.rowNames.empty(); // a text id column, read as the row names
    for (Eigen::Index j = 0; j < raw.dim(); ++j) {
        const std::string& name = raw.columns[size_t(j)];
        const bool rowName = !named && raw.dim() > 1 && looksLikeRowName(name);
        named = named || rowName;
        // A text category (iris's species) is a group, not a measurement: a hue or a label
        // by choice, never a feature or a 0/1 label by its codes' order.
        const bool category = raw.categories.count(name) > 0;
        roles << (category                             ? ColumnRole::Ignore
                  : looksLikeLabel(name, raw.x.col(j)) ? ColumnRole::Label
                  : rowName                            ? ColumnRole::RowName
                                                       : ColumnRole::Feature);
    }
    return roles;
}

/// The first two feature columns that vary: a constant column (mnist has 22) makes a map with
/// one flat axis. Falls back to the first columns when fewer than two vary.
std::pair<int, int> defaultPlotColumns(const Eigen::MatrixXd& x)
{
    std::vector<int> varying;
    for (Eigen::Index j = 0; j < x.cols() && varying.size() < 2; ++j) {
        if (x.rows() > 0 && x.col(j).maxCoeff() > x.col(j).minCoeff()) {
            varying.push_back(int(j));
        }
    }
    const int first = varying.empty() ? 0 : varying[0];
    int second = varying.size() > 1 ? varying[1] : (first == 0 ? 1 : 0);
    if (second >= x.cols()) {
        second = first;
    }
    return {first, second};
}

} // namespace

SessionData::SessionData(Dataset raw, QString source, std::optional<ToyConfig> toy,
                         const FitSettings& settings)
    : m_raw(std::move(raw)), m_source(std::move(source)), m_toy(std::move(toy))
{
    m_roles = guessedRoles(m_raw);
    rebuild(settings);
    const auto [px, py] = defaultPlotColumns(m_features);
    m_plotX = px;
    m_plotY = py;
}

QString SessionData::labelColumn() const
{
    for (int j = 0; j < m_roles.size(); ++j) {
        if (m_roles[j] == ColumnRole::Label) {
            return QString::fromStdString(m_raw.columns[size_t(j)]);
        }
    }
    return {};
}

void SessionData::setRoles(const QVector<ColumnRole>& roles, const FitSettings& settings)
{
    if (roles.size() != m_roles.size()) {
        throw ParameterError("column roles", "one role per column");
    }
    SessionData next = *this;
    next.m_roles = roles;
    next.rebuild(settings);
    const int last = int(next.m_features.cols()) - 1;
    next.m_plotX = std::min(next.m_plotX, last);
    next.m_plotY = std::min(next.m_plotY, last);
    if (next.m_plotX == next.m_plotY && last >= 1) {
        // Clamped onto one column (a role change, or its undo): a map of a against a says
        // nothing, so y moves to the next column.
        next.m_plotY = (next.m_plotX + 1) % (last + 1);
    }
    *this = std::move(next);
}

void SessionData::rescale(const FitSettings& settings)
{
    SessionData next = *this;
    next.rebuild(settings);
    *this = std::move(next);
}

bool SessionData::setPlotColumns(int x, int y)
{
    if (x == m_plotX && y == m_plotY) {
        return false;
    }
    if (x == y && m_features.cols() >= 2) {
        // One axis set to the other's column: the two swap (a map of a against a says nothing).
        if (x != m_plotX) {
            y = m_plotX;
        } else {
            x = m_plotY;
        }
    }
    m_plotX = x;
    m_plotY = y;
    return true;
}

void SessionData::rebuild(const FitSettings& settings)
{
    Dataset ds = m_raw;
    std::vector<std::string> keep;
    int labelCols = 0;
    int nameCols = 0;
    for (int j = 0; j < m_roles.size(); ++j) {
        if (m_roles[j] == ColumnRole::Label) {
            if (++labelCols > 1) {
                throw ParameterError("column roles", "at most one label column");
            }
            ds = ds.withLabelColumn(m_raw.columns[size_t(j)]);
        } else if (m_roles[j] == ColumnRole::RowName) {
            if (++nameCols > 1) {
                throw ParameterError("column roles", "at most one row-name column");
            }
            // A numeric id names the rows in its shortest exact form ("17", "2.5"); it stands
            // in for a text id column the file may also have.
            ds.rowNameColumn = m_raw.columns[size_t(j)];
            ds.rowNames.clear();
            for (Eigen::Index i = 0; i < m_raw.rows(); ++i) {
                ds.rowNames.push_back(formatReal(m_raw.x(i, j)));
            }
        }
    }
    for (int j = 0; j < m_roles.size(); ++j) {
        if (m_roles[j] == ColumnRole::Feature) {
            keep.push_back(m_raw.columns[size_t(j)]);
        }
    }
    if (keep.empty()) {
        throw ParameterError("column roles", "at least one feature column is needed");
    }
    ds = ds.selectColumns(keep);
    m_featureNames.clear();
    for (const auto& c : keep) {
        m_featureNames << QString::fromStdString(c);
    }
    m_featureData = ds;
    // The density view's scaling (purpose=auto is the density there, as for `sosrep fit`),
    // and the Scores view's where the anomaly purpose's comes to another kind on these rows.
    const ScalingKind density = viewScaling(settings, "density");
    PreparedTraining prepared = prepareTraining(ds, density);
    m_scoresFeatures = Matrix();
    m_scoresScaler = Scaler();
    const ScalingKind anomaly = viewScaling(settings, "anomaly");
    if (purposeIsAuto(settings) && anomaly != density) {
        const ScalingKind kind = resolvedScaling(anomaly, ds.x); // the columns' shape, once
        if (kind != prepared.scaler.kind) {
            PreparedTraining own = prepareTraining(ds, kind);
            m_scoresFeatures = std::move(own.x);
            m_scoresScaler = std::move(own.scaler);
        }
    }
    m_features = std::move(prepared.x);
    m_scaler = std::move(prepared.scaler);
    m_warnings = std::move(prepared.warnings);
    m_labels = ds.labels;
}

std::pair<Matrix, Scaler> SessionData::rowsScaledFor(const FitSettings& s) const
{
    const ScalingKind kind = resolvedScaling(scalingOf(s.values), m_featureData.x);
    if (kind == m_scaler.kind) {
        return {m_features, m_scaler};
    }
    if (m_scoresFeatures.size() > 0 && kind == m_scoresScaler.kind) {
        return {m_scoresFeatures, m_scoresScaler};
    }
    PreparedTraining p = prepareTraining(m_featureData, kind);
    return {std::move(p.x), std::move(p.scaler)};
}

} // namespace sosrep::ui
