// SPDX-License-Identifier: MIT
// The session's data and settings: loading, roles, plot columns and options.
#include "ui/controller/session.h"

#include "ui/controller/view_scaling.h"

#include "core/data/csv_reader.h"
#include "core/data/npz_reader.h"
#include "core/errors.h"
#include "core/estimators/registry.h"

#include <QFileInfo>

#include <utility>

namespace sosrep::ui {

Session::Session(QObject* parent) : QObject(parent)
{
    m_settings.values.set("max_fit_rows", std::to_string(kAppMaxFitRows));
}

bool Session::loadFile(const QString& path)
{
    try {
        CsvReadOptions options;
        options.dropTextColumns = true;
        CsvReadReport report;
        Dataset ds;
        if (path.endsWith(QLatin1String(".npz"), Qt::CaseInsensitive)) {
            ds = readNpzDataset(path.toStdString());
        } else {
            // Each kind of bad cell is asked about once; a yes reads the file again.
            for (;;) {
                try {
                    report = CsvReadReport();
                    ds = readCsvFile(path.toStdString(), options, &report);
                    break;
                } catch (const DataError& e) {
                    const QString message = QString::fromStdString(e.what());
                    if (message.contains(QLatin1String("missing value")) &&
                        !options.dropIncompleteRows && askDropIncompleteRows &&
                        askDropIncompleteRows(message)) {
                        options.dropIncompleteRows = true;
                    } else if (message.contains(QLatin1String("not a number")) &&
                               !options.dropStrayTextRows && askDropStrayTextRows &&
                               askDropStrayTextRows(message)) {
                        options.dropStrayTextRows = true;
                    } else {
                        throw;
                    }
                }
            }
        }
        QStringList notes;
        if (!report.rowNameColumn.empty()) {
            notes << tr("column '%1' holds text: kept as the row names")
                         .arg(QString::fromStdString(report.rowNameColumn));
        }
        for (const std::string& c : report.categoryColumns) {
            QStringList levels;
            for (const std::string& level : ds.categories.at(c)) {
                levels << QString::fromStdString(level);
            }
            notes << tr("column '%1' holds %2 categories (%3): not a feature; a hue (the Hue "
                        "box) or a label by choice")
                         .arg(QString::fromStdString(c))
                         .arg(levels.size())
                         .arg(levels.join(QStringLiteral(", ")));
        }
        for (const std::string& c : report.textColumns) {
            notes << tr("column '%1' holds text: left out").arg(QString::fromStdString(c));
        }
        if (report.droppedRows > 0 && report.strayTextRows == 0) {
            notes << tr("%1 rows with a missing value left out").arg(report.droppedRows);
        } else if (report.droppedRows > 0) {
            notes << tr("%1 rows with a missing value or a word in a numeric column left out "
                        "(%2 with a word)")
                         .arg(report.droppedRows)
                         .arg(report.strayTextRows);
        }
        // Data that cannot be prepared (e.g. a column whose range overflows) throws here and
        // leaves the loaded data as it was.
        SessionData data(std::move(ds), QFileInfo(path).absoluteFilePath(), std::nullopt,
                         m_settings);
        data.setLoadNotes(notes);
        setData(std::move(data));
        return true;
    } catch (const std::exception& e) {
        emit errorOccurred(QString::fromStdString(e.what()));
        return false;
    }
}

void Session::generateToy(ToyKind kind, int n, uint64_t seed)
{
    ToyConfig c;
    c.kind = kind;
    c.n = n;
    c.seed = seed;
    c.anomalyFraction = 0.05;
    Dataset ds = generateToyData(c);
    // Keep the label as a column so the roles table shows it (role: label).
    Dataset withLabel = ds;
    withLabel.x.conservativeResize(Eigen::NoChange, ds.dim() + 1);
    withLabel.x.col(ds.dim()) = ds.labels->cast<double>();
    withLabel.columns.push_back("label");
    withLabel.labels.reset();
    // The toy is known before dataChanged: the generator's widgets show it (a project's too).
    setData(SessionData(std::move(withLabel),
                        QStringLiteral("toy:%1 (n=%2, seed=%3)")
                            .arg(QString::fromStdString(toString(kind)))
                            .arg(n)
                            .arg(seed),
                        c, m_settings));
}

void Session::setData(SessionData data)
{
    if (isBusy()) {
        cancel(); // the running jobs stop; their controllers drop them with the result
    }
    m_data = std::move(data);
    clearResult();
    // An l fixed for the old data (typed, or a click on its FD curve) says nothing about these
    // rows: the next fit tunes again instead of reusing it silently.
    const bool reset =
        m_settings.values.has("length_scale") && !m_settings.values.isChoice("length_scale");
    m_data.setLengthScaleWasReset(reset);
    if (reset) {
        m_settings.values.set("length_scale", "auto");
        emit settingsChanged();
    }
    emit dataChanged();
    emit plotColumnsChanged();
}

bool Session::setColumnRoles(const QVector<ColumnRole>& roles)
{
    try {
        m_data.setRoles(roles, m_settings);
    } catch (const std::exception& e) {
        emit errorOccurred(QString::fromStdString(e.what()));
        return false;
    }
    clearResult();
    emit dataChanged();
    emit plotColumnsChanged();
    return true;
}

void Session::setPlotColumns(int x, int y)
{
    if (m_data.setPlotColumns(x, y)) {
        emit plotColumnsChanged(); // GridController evaluates the result's maps again
    }
}

void Session::setSettings(const FitSettings& s)
{
    if (s == m_settings) {
        return;
    }
    // The scalings follow the scale option and the purpose (scale=auto is the purpose's), and
    // an estimator without a purpose scales as the density does.
    if (scalingSignature(s) != scalingSignature(m_settings) && m_data.hasData()) {
        const ScalingKind shown = m_data.scaler().kind;
        try {
            m_data.rescale(s);
        } catch (const std::exception& e) {
            emit errorOccurred(QString::fromStdString(e.what()));
            emit settingsChanged();
            return;
        }
        m_settings = s;
        if (m_data.scaler().kind != shown) {
            // The views' rows moved; a change of the Scores view's own rows alone (a purpose
            // or an estimator without one) keeps the Show box, the experiment and the maps.
            emit dataChanged();
        }
    }
    m_settings = s;
    emit settingsChanged();
}

bool Session::setOption(const std::string& name, const std::string& value)
{
    FitSettings s = m_settings;
    try {
        s.values.set(name, value);
    } catch (const ParameterError& e) {
        emit errorOccurred(QString::fromStdString(describe(e)));
        emit settingsChanged(); // the panel shows the value kept
        return false;
    }
    setSettings(s);
    return true;
}

void Session::setEstimator(const std::string& name)
{
    FitSettings s = m_settings;
    s.setEstimator(name);
    setSettings(s);
}

std::string compareEstimatorFor(const FitSettings& settings, const std::string& choice)
{
    if (!choice.empty() && EstimatorRegistry::instance().find(choice)) {
        return choice;
    }
    return settings.estimator == "sosrep" ? "kde" : "sosrep";
}

void Session::setCompareEstimator(const std::string& name)
{
    m_compareWith = name;
    emit settingsChanged();
}

void Session::setSolverComparison(const SolverComparisonSettings& s)
{
    m_solverComparison = s;
    emit settingsChanged();
}

} // namespace sosrep::ui
