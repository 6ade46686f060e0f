// SPDX-License-Identifier: MIT
// The session's data: the rows as read, their column roles, and the features scaled as fitted.
#pragma once

#include "core/data/dataset.h"
#include "core/data/scaler.h"
#include "core/data/toy_data.h"
#include "core/estimators/fit_settings.h"

#include <QString>
#include <QStringList>
#include <QVector>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace sosrep::ui {

enum class ColumnRole
{
    Feature,
    Label,
    Ignore,
    RowName // the rows' names (an id column): shown and exported beside the scores
};

/// The loaded rows and what the views make of them: the columns' roles, the feature matrix in
/// the density view's scaling (and the Scores view's where it differs), the labels and the
/// plotted columns. A value: the Session changes it only through the methods below, each of
/// which leaves it as it was when it throws (data that cannot be prepared keeps the old data).
class SessionData
{
public:
    /// Data loaded from `source` with its roles guessed (a 0/1 column named like a label is
    /// the label, a numeric id column names the rows) and scaled as `settings` say.
    SessionData(Dataset raw, QString source, std::optional<ToyConfig> toy,
                const FitSettings& settings);
    SessionData() = default;

    const Dataset& rawData() const { return m_raw; }
    QString dataSource() const { return m_source; }
    /// Set when the data came from the toy generator (projects store it instead of a path).
    const std::optional<ToyConfig>& toyConfig() const { return m_toy; }
    bool hasData() const { return m_raw.rows() > 0; }
    /// What the load left out ("column 'name' holds text", "3 rows with a missing value").
    const QStringList& loadNotes() const { return m_loadNotes; }
    /// Whether loading the data reset a fixed l to auto (it was chosen for other data).
    bool lengthScaleWasReset() const { return m_lengthScaleReset; }

    QVector<ColumnRole> columnRoles() const { return m_roles; }
    /// The column with the label role ("" = none; an .npz's y is not a column).
    QString labelColumn() const;
    /// Feature columns (names) in order, after roles.
    const QStringList& featureNames() const { return m_featureNames; }
    /// The feature columns as read (unscaled), after roles; the Ratio view scales its own.
    const Dataset& featureData() const { return m_featureData; }
    /// Scaled feature matrix and labels, as fitted.
    const Matrix& features() const { return m_features; }
    const std::optional<Eigen::VectorXi>& labels() const { return m_labels; }
    /// The scaling of the features (raw = shift + scale * scaled), for axes in raw units.
    const Scaler& scaler() const { return m_scaler; }
    /// purpose=auto where the anomaly purpose's scaling comes to another kind: every row in
    /// it, for the Scores view (FitJobInput::scoresX), and its scaler; empty otherwise.
    const Matrix& scoresFeatures() const { return m_scoresFeatures; }
    const Scaler& scoresScaler() const { return m_scoresScaler; }
    /// The rows scaled as a fit with these settings scales them (scale=auto: its purpose's),
    /// and the scaler: the views' own matrices when one matches, else scaled anew.
    std::pair<Matrix, Scaler> rowsScaledFor(const FitSettings& s) const;
    /// The data's soft problems (constant columns...), from its preparation.
    const std::vector<std::string>& warnings() const { return m_warnings; }

    int plotX() const { return m_plotX; }
    int plotY() const { return m_plotY; }

    // --- changes (the Session's) -----------------------------------------------------------
    /// New roles (throws ParameterError naming the problem; unchanged then). The plot columns
    /// stay on distinct feature columns.
    void setRoles(const QVector<ColumnRole>& roles, const FitSettings& settings);
    /// The features scaled again for new settings (throws; unchanged then).
    void rescale(const FitSettings& settings);
    /// Other plot columns; one axis set to the other's column swaps the two. False when
    /// nothing changed.
    bool setPlotColumns(int x, int y);
    void setLoadNotes(QStringList notes) { m_loadNotes = std::move(notes); }
    void setLengthScaleWasReset(bool reset) { m_lengthScaleReset = reset; }

private:
    void rebuild(const FitSettings& settings);

    Dataset m_raw;
    QString m_source;
    std::optional<ToyConfig> m_toy;
    QStringList m_loadNotes;
    bool m_lengthScaleReset = false;
    QVector<ColumnRole> m_roles;
    QStringList m_featureNames;
    Dataset m_featureData;
    Matrix m_features;
    Scaler m_scaler;
    Matrix m_scoresFeatures;
    Scaler m_scoresScaler;
    std::optional<Eigen::VectorXi> m_labels;
    std::vector<std::string> m_warnings;
    int m_plotX = 0;
    int m_plotY = 1;
};

} // namespace sosrep::ui
