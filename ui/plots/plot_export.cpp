// SPDX-License-Identifier: MIT
#include "ui/plots/plot_export.h"

#include <qcustomplot.h>

#include <QBuffer>
#include <QClipboard>
#include <QFileInfo>
#include <QGuiApplication>
#include <QSaveFile>
#include <QSvgGenerator>
#include <QTemporaryFile>

namespace sosrep::ui {

QString exportPlot(QCustomPlot* plot, const QString& path, const ExportOptions& o)
{
    const int w = o.width > 0 ? o.width : plot->width();
    const int h = o.height > 0 ? o.height : plot->height();
    const QString ext = QFileInfo(path).suffix().toLower();
    if (ext == QLatin1String("png")) {
        const double scale = o.dpi / 96.0;
        QImage image = plot->toPixmap(w, h, scale).toImage();
        const int dotsPerMeter = int(o.dpi / 0.0254 + 0.5);
        image.setDotsPerMeterX(dotsPerMeter);
        image.setDotsPerMeterY(dotsPerMeter);
        QSaveFile file(path);
        if (!file.open(QIODevice::WriteOnly) || !image.save(&file, "PNG") || !file.commit()) {
            return QStringLiteral("%1: cannot write PNG (%2)").arg(path, file.errorString());
        }
        return {};
    }
    if (ext == QLatin1String("svg")) {
        QBuffer buffer;
        buffer.open(QIODevice::WriteOnly);
        QSvgGenerator gen;
        gen.setOutputDevice(&buffer);
        gen.setSize(QSize(w, h));
        gen.setViewBox(QRect(0, 0, w, h));
        gen.setTitle(plot->window()->windowTitle());
        QCPPainter painter;
        painter.begin(&gen);
        plot->toPainter(&painter, w, h);
        painter.end();
        QSaveFile file(path);
        if (!file.open(QIODevice::WriteOnly) || file.write(buffer.data()) != buffer.size() ||
            !file.commit()) {
            return QStringLiteral("%1: cannot write SVG (%2)").arg(path, file.errorString());
        }
        return {};
    }
    if (ext == QLatin1String("pdf")) {
        // savePdf writes straight to a path: give it a temporary one beside the target, then
        // rename, so a failure never leaves a half-written PDF under the user's name.
        QTemporaryFile tmp(QFileInfo(path).absolutePath() +
                           QStringLiteral("/.sosrep-export-XXXXXX.pdf"));
        if (!tmp.open()) {
            return QStringLiteral("%1: cannot create a temporary file beside it").arg(path);
        }
        tmp.close();
        if (!plot->savePdf(tmp.fileName(), w, h, QCP::epNoCosmetic)) {
            return QStringLiteral("%1: cannot write PDF").arg(path);
        }
        QFile::remove(path);
        if (!QFile::rename(tmp.fileName(), path)) {
            return QStringLiteral("%1: cannot move the PDF into place").arg(path);
        }
        tmp.setAutoRemove(false);
        return {};
    }
    return QStringLiteral("%1: unknown image type '%2' (use .png, .pdf or .svg)").arg(path, ext);
}

void copyPlotToClipboard(QCustomPlot* plot)
{
    QGuiApplication::clipboard()->setPixmap(plot->toPixmap(plot->width(), plot->height(), 2.0));
}

} // namespace sosrep::ui
