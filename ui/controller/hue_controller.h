// SPDX-License-Identifier: MIT
// seaborn's hue: per-class densities by a column, fitted on a worker for the current result.
#pragma once

#include "ui/controller/class_densities.h"

#include "ui/controller/result_controller.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <atomic>
#include <memory>

namespace sosrep::ui {

/// The hue of the Density tab (seaborn's hue=): a raw column whose values split the rows into
/// classes, each fitted alone at the result's length scale on a worker (ready() when done,
/// failed() with why; Esc cancels). Owns its column, its classes and its job; listens to the
/// session only: a new result or new plotted columns fit the classes again, new data without
/// the column drop it.
class HueController : public ResultController
{
    Q_OBJECT

public:
    explicit HueController(Session* session, QObject* parent = nullptr);

    /// Takes the column ("" drops the classes) and fits its classes for the current result.
    void setColumn(const QString& column);
    QString column() const { return m_column; }
    /// The classes of the current result, or null (none asked, or still being fitted).
    const ClassDensities* classes() const { return m_classes.get(); }
    /// Raw columns a hue can be taken from: 2 to kMaxHueClasses distinct values.
    QStringList candidates() const;
    /// Per-class ℓ and common_norm. Another ℓ rule fits the classes again; common_norm only
    /// redraws them (ready() again when classes are known).
    void setOptions(const HueOptions& options);
    const HueOptions& options() const { return m_options; }

signals:
    /// setColumn() took another column (the Hue box follows, whatever set it).
    void columnChanged();
    /// setOptions() took other options (the Hue menu follows).
    void optionsChanged();
    /// The hue's column was a feature: it left the features (its role is ignore now; the next
    /// fit is of the other columns, as seaborn's hue is not a variable of the density).
    void columnLeftFeatures(const QString& column);

private:
    /// Stops the running fit (its result is dropped) and forgets the classes.
    void drop() override;
    /// Starts the classes for the current result (when a column is set and none are known).
    void start() override;

    QString m_column;
    HueOptions m_options;
    std::shared_ptr<const ClassDensities> m_classes;
};

} // namespace sosrep::ui
