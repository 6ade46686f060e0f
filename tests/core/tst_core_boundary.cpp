// SPDX-License-Identifier: MIT
// House rule: core/ depends on Eigen, the standard library and zlib only, and never prints.
#include <QtTest>

class TstCoreBoundary : public QObject
{
    Q_OBJECT

private slots:
    void core_includesNoQtNoUiAndDoesNotPrint()
    {
        const QRegularExpression forbidden(QStringLiteral(
            "#include\\s*[<\"](Q[A-Za-z]+|qcustomplot|ui/)|std::cout|std::cerr|std::clog|"
            "\\b(printf|fprintf|puts|fputs|perror|putchar)\\("));
        QDirIterator it(QStringLiteral(SOSREP_SOURCE_DIR "/core"),
                        {QStringLiteral("*.h"), QStringLiteral("*.cpp")}, QDir::Files,
                        QDirIterator::Subdirectories);
        int files = 0;
        while (it.hasNext()) {
            QFile f(it.next());
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QString text = QString::fromUtf8(f.readAll());
            const auto m = forbidden.match(text);
            QVERIFY2(!m.hasMatch(),
                     qPrintable(f.fileName() + QStringLiteral(": ") + m.captured(0)));
            ++files;
        }
        QVERIFY(files > 10);
    }
};

QTEST_APPLESS_MAIN(TstCoreBoundary)
#include "tst_core_boundary.moc"
