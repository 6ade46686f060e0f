// SPDX-License-Identifier: MIT
// Exporting a plot to PNG, PDF or SVG, or to the clipboard.
#include "ui/plots/plot_export.h"

#include "ui/plots/svg_device.h"

#include <qcustomplot.h>

#include <QBuffer>
#include <QClipboard>
#include <QFileInfo>
#include <QGuiApplication>
#include <QLabel>
#include <QPdfWriter>
#include <QSaveFile>
#include <QTextDocument>

namespace sosrep::ui {
namespace {

/// Draws `source` into a w x h logical-pixel area of an active painter.
void paintSource(QCPPainter& painter, QWidget* source, int w, int h)
{
    if (auto* plot = qobject_cast<QCustomPlot*>(source)) {
        plot->toPainter(&painter, w, h);
        return;
    }
    // A view of several plots: each at its place, the whole scaled to the requested size.
    painter.save();
    painter.fillRect(QRect(0, 0, w, h), Qt::white);
    painter.scale(double(w) / std::max(1, source->width()),
                  double(h) / std::max(1, source->height()));
    for (QWidget* child : source->findChildren<QWidget*>()) {
        if (!child->isVisibleTo(source)) {
            continue;
        }
        const QPoint at = child->mapTo(source, QPoint(0, 0));
        if (auto* plot = qobject_cast<QCustomPlot*>(child)) {
            painter.save();
            painter.translate(at);
            plot->toPainter(&painter, plot->width(), plot->height());
            painter.restore();
        } else if (auto* label = qobject_cast<QLabel*>(child); label && !label->text().isEmpty()) {
            // Read-outs use a little rich text (bold names): lay them out as the label does.
            QTextDocument doc;
            doc.setDefaultFont(label->font());
            doc.setDocumentMargin(0);
            if (Qt::mightBeRichText(label->text())) {
                doc.setHtml(label->text());
            } else {
                doc.setPlainText(label->text());
            }
            doc.setTextWidth(label->width());
            painter.save();
            painter.translate(at);
            doc.drawContents(&painter, QRectF(0, 0, label->width(), label->height()));
            painter.restore();
        }
    }
    painter.restore();
}

void setLogicalDpi(QImage& image, int dpi)
{
    const int dotsPerMeter = int(dpi / 0.0254 + 0.5);
    image.setDotsPerMeterX(dotsPerMeter);
    image.setDotsPerMeterY(dotsPerMeter);
}

QString writeAtomically(const QString& path, const QByteArray& bytes, const char* what)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit()) {
        return QStringLiteral("%1: cannot write %2 (%3)")
            .arg(path, QLatin1String(what), file.errorString());
    }
    return {};
}

} // namespace

QString exportPlot(QWidget* source, const QString& path, const ExportOptions& o)
{
    const int w = o.width > 0 ? o.width : source->width();
    const int h = o.height > 0 ? o.height : source->height();
    const QString ext = QFileInfo(path).suffix().toLower();
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    QCPPainter painter;
    if (ext == QLatin1String("png")) {
        const double scale = o.dpi / 96.0;
        QImage image(int(w * scale + 0.5), int(h * scale + 0.5), QImage::Format_ARGB32);
        image.fill(Qt::white);
        // Fonts (in points) are laid out at the screen's logical DPI, as on screen; the scale
        // adds the pixels, and the file records the requested DPI afterwards.
        setLogicalDpi(image, source->logicalDpiX());
        painter.begin(&image);
        painter.setRenderHint(QPainter::Antialiasing);
        painter.scale(scale, scale);
        paintSource(painter, source, w, h);
        painter.end();
        setLogicalDpi(image, o.dpi);
        if (!image.save(&buffer, "PNG")) {
            return QStringLiteral("%1: cannot encode PNG").arg(path);
        }
        return writeAtomically(path, buffer.data(), "PNG");
    }
    if (ext == QLatin1String("svg")) {
        SvgDevice svg(w, h, source->logicalDpiX(), source->window()->windowTitle());
        painter.begin(&svg);
        painter.setMode(QCPPainter::pmVectorized);
        paintSource(painter, source, w, h);
        painter.end();
        buffer.write(svg.document());
        return writeAtomically(path, buffer.data(), "SVG");
    }
    if (ext == QLatin1String("pdf")) {
        // One device unit per logical pixel at the screen's DPI (fonts as on screen), no
        // margins: the page is the plot.
        const double dpi = source->logicalDpiX();
        QPdfWriter pdf(&buffer);
        pdf.setResolution(int(dpi));
        pdf.setPageSize(QPageSize(QSizeF(w * 72.0 / dpi, h * 72.0 / dpi), QPageSize::Point,
                                  QString(), QPageSize::ExactMatch));
        pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
        pdf.setCreator(QStringLiteral("SOSREP Studio"));
        pdf.setTitle(source->window()->windowTitle());
        painter.begin(&pdf);
        painter.setMode(QCPPainter::pmVectorized);
        painter.setMode(QCPPainter::pmNonCosmetic); // line widths scale with the page
        paintSource(painter, source, w, h);
        painter.end();
        return writeAtomically(path, buffer.data(), "PDF");
    }
    return QStringLiteral("%1: unknown image type '%2' (use .png, .pdf or .svg)").arg(path, ext);
}

void copyPlotToClipboard(QWidget* source)
{
    QImage image(source->width() * 2, source->height() * 2, QImage::Format_ARGB32);
    image.fill(Qt::white);
    setLogicalDpi(image, source->logicalDpiX());
    QCPPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.scale(2.0, 2.0);
    paintSource(painter, source, source->width(), source->height());
    painter.end();
    QGuiApplication::clipboard()->setImage(image);
}

} // namespace sosrep::ui
