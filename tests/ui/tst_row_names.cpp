// SPDX-License-Identifier: MIT
// Row names in the Scores view (issue 38): a file's id column, text or numbers, names the rows
// of the Scores table and of its export, beside the feature columns in the data's own units;
// it is not a feature, and a project keeps its role.
#include "ui/controller/session.h"
#include "ui/exporter.h"
#include "ui/main_window.h"

#include "support/gui_fixtures.h"

#include <QAbstractItemModel>
#include <QFile>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

using namespace sosrep::ui;

namespace {

QStringList headers(const QAbstractItemModel* m)
{
    QStringList h;
    for (int c = 0; c < m->columnCount(); ++c) {
        h << m->headerData(c, Qt::Horizontal, Qt::DisplayRole).toString();
    }
    return h;
}

/// The value of the table's column `name` at source row `row` (the view may be sorted: look
/// the row up by its "row" column).
QVariant cell(const QAbstractItemModel* m, int row, const QString& name)
{
    const int column = int(headers(m).indexOf(name));
    for (int r = 0; r < m->rowCount(); ++r) {
        if (m->index(r, 0).data().toInt() == row) {
            return m->index(r, column).data();
        }
    }
    return {};
}

} // namespace

class TstRowNames : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    QString write(const char* name, const QByteArray& text)
    {
        QFile f(m_dir.filePath(QString::fromLatin1(name)));
        f.open(QIODevice::WriteOnly);
        f.write(text);
        return f.fileName();
    }

    static QByteArray table(const char* idHeader, bool textIds)
    {
        QByteArray csv = QByteArray(idHeader) + ",minutes,hours\n";
        for (int i = 0; i < 120; ++i) {
            const QByteArray id = textIds ? "item \"" + QByteArray::number(i) + "\", b"
                                          : QByteArray::number(1000 + i);
            csv += (textIds ? "\"" + QByteArray(id).replace("\"", "\"\"") + "\"" : id) + ',' +
                   QByteArray::number(std::sin(i * 0.37) * 30 + 60, 'g', 10) + ',' +
                   QByteArray::number((i * 7) % 13 + 0.5, 'g', 10) + '\n';
        }
        return csv;
    }

    static bool scoreAndWait(FitController* fits)
    {
        Session* c = fits->session();
        QSignalSpy scored(c, &Session::scoresReady);
        return fitAndWait(fits) && (c->result()->scoresReady() || scored.wait(60000));
    }

private slots:
    void aTextIdColumnNamesTheRowsOfTheTableAndTheExport()
    {
        MainWindow w;
        auto* c = w.session();
        QVERIFY(c->loadFile(write("text_ids.csv", table("name", true))));
        QCOMPARE(c->data().featureNames(), (QStringList{"minutes", "hours"}));
        QCOMPARE(c->data().featureData().rowNameColumn, std::string("name"));
        QVERIFY(scoreAndWait(w.fits()));
        const auto* view = w.findChild<QTableView*>(QStringLiteral("scoresTable"));
        QVERIFY(view);
        const QAbstractItemModel* m = view->model();
        const QStringList h = headers(m);
        QCOMPARE(h.mid(0, 2), (QStringList{"row", "name"}));
        QCOMPARE(h.mid(h.size() - 2), (QStringList{"minutes", "hours"}));
        QCOMPARE(cell(m, 7, QStringLiteral("name")).toString(), QStringLiteral("item \"7\", b"));
        // Sorted as at first without names: the most anomalous row on top.
        int score = -1;
        for (int k = 0; k < h.size(); ++k) {
            score = h[k].startsWith(QStringLiteral("anomaly score")) ? k : score;
        }
        QVERIFY(score > 0);
        double top = -1e300;
        for (int r = 0; r < m->rowCount(); ++r) {
            top = std::max(top, m->index(r, score).data().toDouble());
        }
        QCOMPARE(m->index(0, score).data().toDouble(), top);
        // Features in the file's own units, not scaled.
        QCOMPARE(cell(m, 7, QStringLiteral("minutes")).toDouble(),
                 QByteArray::number(std::sin(7 * 0.37) * 30 + 60, 'g', 10).toDouble());
        QCOMPARE(cell(m, 7, QStringLiteral("hours")).toDouble(), 10.5);
        // The export: the name after the row, quoted as RFC 4180 says.
        const QString out = m_dir.filePath(QStringLiteral("scores.csv"));
        QCOMPARE(w.exporter()->exportScores(out), QString());
        QFile f(out);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = f.readAll().split('\n');
        QVERIFY2(lines[0].startsWith("row,name,"), lines[0].constData());
        QVERIFY2(lines[8].startsWith("7,\"item \"\"7\"\", b\","), lines[8].constData());
    }

    void aNumericIdColumnIsARowNameNotAFeatureUntilTheUserSaysSo()
    {
        MainWindow w;
        auto* c = w.session();
        QVERIFY(c->loadFile(write("num_ids.csv", table("id", false))));
        QCOMPARE(c->data().columnRoles()[0], ColumnRole::RowName);
        QCOMPARE(c->data().featureNames(), (QStringList{"minutes", "hours"}));
        QVERIFY(scoreAndWait(w.fits()));
        const QAbstractItemModel* m =
            w.findChild<QTableView*>(QStringLiteral("scoresTable"))->model();
        QCOMPARE(headers(m).mid(0, 2), (QStringList{"row", "id"}));
        QCOMPARE(cell(m, 5, QStringLiteral("id")).toString(), QStringLiteral("1005"));
        // Made a feature again: three features, no name column.
        QVERIFY(c->setColumnRoles({ColumnRole::Feature, ColumnRole::Feature, ColumnRole::Feature}));
        QCOMPARE(c->data().featureNames().size(), 3);
        QVERIFY(c->data().featureData().rowNames.empty());
        QVERIFY(scoreAndWait(w.fits()));
        const QStringList h = headers(m);
        QCOMPARE(h.count(QStringLiteral("id")), 1); // among the features only
        QCOMPARE(h.mid(h.size() - 3), (QStringList{"id", "minutes", "hours"}));
        // Two row-name columns are refused and the roles in force stay.
        QVERIFY(
            !c->setColumnRoles({ColumnRole::RowName, ColumnRole::RowName, ColumnRole::Feature}));
        QCOMPARE(c->data().featureNames().size(), 3);
    }
};

QTEST_MAIN(TstRowNames)
#include "tst_row_names.moc"
