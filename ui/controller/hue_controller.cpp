// SPDX-License-Identifier: MIT
// seaborn's hue: per-class densities by a column, fitted on a worker for the current result.
#include "ui/controller/hue_controller.h"

#include "ui/controller/session.h"
#include "ui/controller/worker.h"

#include <QFutureWatcher>

#include <algorithm>
#include <set>

namespace sosrep::ui {

HueController::HueController(Session* session, QObject* parent) : ResultController(session, parent)
{
    // The classes belong to a result: another result (or none) drops them, and the next one
    // fits them again, as do new plotted columns (their grids were of the others).
    connect(session, &Session::gridsUpdated, this, [this] {
        if (!m_column.isEmpty()) {
            drop();
            start();
        }
    });
    // A hue of columns the new data do not have goes.
    connect(session, &Session::dataChanged, this, [this] {
        if (!m_column.isEmpty() && !candidates().contains(m_column)) {
            setColumn(QString());
        }
    });
}

QStringList HueController::candidates() const
{
    const Dataset& raw = session()->data().rawData();
    QStringList out;
    for (Eigen::Index j = 0; j < raw.x.cols(); ++j) {
        std::set<double> values;
        for (Eigen::Index i = 0; i < raw.x.rows() && int(values.size()) <= kMaxHueClasses; ++i) {
            values.insert(raw.x(i, j));
        }
        if (values.size() >= 2 && int(values.size()) <= kMaxHueClasses) {
            out << QString::fromStdString(raw.columns[size_t(j)]);
        }
    }
    return out;
}

void HueController::setColumn(const QString& column)
{
    if (column == m_column) {
        return;
    }
    drop();
    m_column = column;
    emit columnChanged();
    if (column.isEmpty()) {
        emit ready(); // the views drop the classes
        return;
    }
    // The hue splits the rows; it is not one of the density's variables (issue 50: `--hue
    // group` fitted a 2-D density on (x, group)). A feature column chosen as the hue leaves
    // the features, unless it is the only one or no hue (more than kMaxHueClasses values:
    // start() says so).
    const SessionData& data = session()->data();
    QVector<ColumnRole> roles = data.columnRoles();
    const auto& names = data.rawData().columns;
    const auto at = std::find(names.begin(), names.end(), column.toStdString());
    const int j = int(at - names.begin());
    if (at != names.end() && j < roles.size() && roles[j] == ColumnRole::Feature &&
        data.featureNames().size() > 1 && candidates().contains(column)) {
        roles[j] = ColumnRole::Ignore;
        if (session()->setColumnRoles(roles)) {
            emit columnLeftFeatures(column); // the result went with the old features
            return;
        }
    }
    start();
}

void HueController::setOptions(const HueOptions& options)
{
    if (options == m_options) {
        return;
    }
    const bool refit = options.perClassLengthScale != m_options.perClassLengthScale;
    m_options = options;
    emit optionsChanged();
    if (m_column.isEmpty()) {
        return;
    }
    if (refit) {
        drop();
        start();
    } else if (m_classes) {
        emit ready(); // drawn again with the other normalization
    }
}

void HueController::drop()
{
    stopJob(); // its answer is dropped; the next job gets a fresh flag
    m_classes.reset();
}

void HueController::start()
{
    const FitJobResult* result = session()->result();
    if (m_column.isEmpty() || !result || m_classes) {
        return;
    }
    const Dataset& raw = session()->data().rawData();
    int c = -1;
    for (size_t j = 0; j < raw.columns.size(); ++j) {
        c = QString::fromStdString(raw.columns[j]) == m_column ? int(j) : c;
    }
    if (c < 0) {
        emit failed(tr("Hue: '%1' is not a column of these data").arg(m_column));
        return;
    }
    const std::shared_ptr<std::atomic<bool>> cancel = jobFlag(); // fresh after an Esc
    const Vector hue = raw.x.col(c);
    const Matrix x = session()->data().features();
    const FitSettings settings = result->settings;
    const double lengthScale = result->lengthScale();
    const Scaler scaler = session()->data().scaler();
    const bool map = result->grid.logDensity.size() > 0;
    const GridSpec grid = result->grid.spec;
    const CurveSpec curve = curveAroundData(x, 0);
    const std::string column = m_column.toStdString();
    const bool perClass = m_options.perClassLengthScale;
    const auto named = raw.categories.find(column);
    const std::vector<std::string> levels =
        named == raw.categories.end() ? std::vector<std::string>() : named->second;
    const quint64 generation = session()->resultGeneration();
    auto* watcher = new QFutureWatcher<ClassDensities>(this);
    connect(watcher, &QFutureWatcher<ClassDensities>::finished, this,
            [this, watcher, generation, cancel] {
                watcher->deleteLater();
                ClassDensities d = watcher->result();
                if (!isCurrent(cancel, generation)) {
                    return; // another result or hue since: that one asks anew
                }
                if (d.cancelled) {
                    emit failed(tr("Hue cancelled (Esc): choose it again to fit the classes"));
                    return;
                }
                if (!d.error.empty()) {
                    emit failed(tr("Hue: %1").arg(QString::fromStdString(d.error)));
                    return;
                }
                emit progressChanged(QString(), 0, 0);
                m_classes = std::make_shared<const ClassDensities>(std::move(d));
                emit ready();
            });
    emit progressChanged(tr("fitting the hue's classes"), 0, 0);
    watcher->setFuture(runInWorker([=] {
        return fitClassDensities(x, hue, column, settings, lengthScale, scaler,
                                 map ? &grid : nullptr, map ? nullptr : &curve, *cancel, levels,
                                 perClass);
    }));
}

} // namespace sosrep::ui
