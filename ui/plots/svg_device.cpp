// SPDX-License-Identifier: MIT
// A paint device that writes SVG for plot exports.
#include "ui/plots/svg_device.h"

#include <QBuffer>
#include <QFontInfo>
#include <QImage>
#include <QPaintEngine>
#include <QPainter>
#include <QPainterPath>
#include <QPixmap>

#include <climits>
#include <cmath>
#include <map>
#include <vector>

namespace sosrep::ui {
namespace {

/// A coordinate at 1/1000 px: exact enough for any zoom a viewer offers, short enough to keep
/// a 50 000-point scatter's file small.
QByteArray num(double x)
{
    const double r = std::round(x * 1000.0) / 1000.0;
    return QByteArray::number(r == 0.0 ? 0.0 : r, 'g', 12);
}

QByteArray xmlText(const QString& s)
{
    QString clean;
    clean.reserve(s.size());
    for (const QChar c : s) {
        if (c.unicode() >= 0x20 || c == QLatin1Char('\t')) {
            clean.append(c);
        }
    }
    return clean.toHtmlEscaped().toUtf8();
}

QByteArray colour(const QColor& c)
{
    return c.name(QColor::HexRgb).toLatin1();
}

QByteArray matrix(const QTransform& t)
{
    return "matrix(" + num(t.m11()) + ' ' + num(t.m12()) + ' ' + num(t.m21()) + ' ' + num(t.m22()) +
           ' ' + num(t.dx()) + ' ' + num(t.dy()) + ')';
}

QByteArray pathData(const QPainterPath& path)
{
    QByteArray d;
    for (int i = 0; i < path.elementCount(); ++i) {
        const QPainterPath::Element& e = path.elementAt(i);
        if (!std::isfinite(e.x) || !std::isfinite(e.y)) {
            return {}; // a path with a NaN draws nothing rather than garbage
        }
        switch (e.type) {
        case QPainterPath::MoveToElement:
            d += 'M' + num(e.x) + ',' + num(e.y);
            break;
        case QPainterPath::LineToElement:
            d += 'L' + num(e.x) + ',' + num(e.y);
            break;
        case QPainterPath::CurveToElement:
            d += 'C' + num(e.x) + ',' + num(e.y);
            break;
        case QPainterPath::CurveToDataElement:
            d += ' ' + num(e.x) + ',' + num(e.y);
            break;
        }
    }
    return d;
}

} // namespace

/// One run of a label: what QPainter hands over per font (a label with a Greek letter arrives
/// as several runs). Outside the anonymous namespace: SvgPaintEngine, declared in the header,
/// holds them.
struct SvgTextRun
{
    QString text;
    QFont font;
    QColor colour;
};

class SvgPaintEngine : public QPaintEngine
{
public:
    explicit SvgPaintEngine(int dpi)
        : QPaintEngine(AllFeatures &
                       ~(PerspectiveTransform | PorterDuff | BlendModes | RasterOpModes)),
          m_dpi(dpi)
    {
    }

    QByteArray body() const { return m_body; }

    bool begin(QPaintDevice*) override
    {
        m_body.clear();
        m_clip = {};
        m_clipOn = false;
        m_wantClip = false;
        m_clipIds.clear();
        return true;
    }

    bool end() override
    {
        flushText();
        closeGroup();
        return true;
    }

    Type type() const override { return QPaintEngine::User; }

    void updateState(const QPaintEngineState& s) override
    {
        const DirtyFlags f = s.state();
        if (f & DirtyPen) {
            m_pen = s.pen();
        }
        if (f & DirtyBrush) {
            m_brush = s.brush();
        }
        if (f & DirtyTransform) {
            m_transform = s.transform();
        }
        if (f & DirtyOpacity) {
            m_opacity = s.opacity();
        }
        if (f & DirtyHints) {
            m_hints = s.renderHints();
        }
        if (f & (DirtyClipPath | DirtyClipRegion | DirtyClipEnabled)) {
            updateClip();
        }
    }

    void drawPath(const QPainterPath& path) override { writePath(path, true); }

    void drawPolygon(const QPointF* points, int count, PolygonDrawMode mode) override
    {
        if (count < 1) {
            return;
        }
        QPainterPath path;
        path.setFillRule(mode == OddEvenMode ? Qt::OddEvenFill : Qt::WindingFill);
        path.moveTo(points[0]);
        for (int i = 1; i < count; ++i) {
            path.lineTo(points[i]);
        }
        if (mode != PolylineMode) {
            path.closeSubpath();
        }
        writePath(path, mode != PolylineMode);
    }

    void drawPixmap(const QRectF& r, const QPixmap& pm, const QRectF& sr) override
    {
        drawImage(r, pm.toImage(), sr, Qt::AutoColor);
    }

    void drawImage(const QRectF& r, const QImage& image, const QRectF& sr,
                   Qt::ImageConversionFlags) override
    {
        syncClip();
        flushText();
        const QRect source = sr.toAlignedRect();
        const QImage part = source == image.rect() ? image : image.copy(source);
        QBuffer png;
        png.open(QIODevice::WriteOnly);
        if (part.isNull() || !part.save(&png, "PNG")) {
            return;
        }
        const bool smooth = m_hints.testFlag(QPainter::SmoothPixmapTransform);
        m_body += "<image x=\"" + num(r.x()) + "\" y=\"" + num(r.y()) + "\" width=\"" +
                  num(r.width()) + "\" height=\"" + num(r.height()) +
                  "\" preserveAspectRatio=\"none\"";
        if (!m_transform.isIdentity()) {
            m_body += " transform=\"" + matrix(m_transform) + '"';
        }
        if (m_opacity < 1.0) {
            m_body += " opacity=\"" + num(m_opacity) + '"';
        }
        if (!smooth) {
            // Heatmap cells stay cells when a viewer scales the image up.
            m_body += " image-rendering=\"optimizeSpeed\" style=\"image-rendering:pixelated\"";
        }
        m_body += " xlink:href=\"data:image/png;base64," + png.data().toBase64() + "\"/>\n";
    }

    void drawTextItem(const QPointF& p, const QTextItem& item) override
    {
        const QString text = item.text();
        if (text.isEmpty()) {
            return;
        }
        syncClip();
        // Runs that continue the pending label on its baseline join it, so the label is one
        // <text> and the viewer lays its runs out one after the other.
        const bool continues = !m_runs.empty() && m_textTransform == m_transform &&
                               std::abs(p.y() - m_textOrigin.y()) < 0.01 &&
                               std::abs(p.x() - m_textEnd) < 0.5;
        if (!continues) {
            flushText();
            m_textTransform = m_transform;
            m_textOrigin = p;
            m_textEnd = p.x();
        }
        m_runs.push_back({text, item.font(), m_pen.color()});
        m_textEnd += item.width();
    }

private:
    /// Records the painter's clip; the group that applies it opens at the next drawing, so a
    /// save/restore around each plottable (QCustomPlot's way) writes no empty groups, and one
    /// clip region is defined once however often it returns.
    void updateClip()
    {
        QPainter* p = painter();
        m_wantClip = p != nullptr && p->hasClipping();
        m_wantClipPath = m_wantClip ? p->combinedTransform().map(p->clipPath()) : QPainterPath();
    }

    void syncClip()
    {
        if (m_wantClip == m_clipOn && (!m_clipOn || m_wantClipPath == m_clip)) {
            return;
        }
        flushText();
        closeGroup();
        if (!m_wantClip) {
            return;
        }
        m_clipOn = true;
        m_clip = m_wantClipPath;
        const QByteArray d = pathData(m_clip);
        const QByteArray rule =
            m_clip.fillRule() == Qt::OddEvenFill ? " clip-rule=\"evenodd\"" : "";
        QByteArray& id = m_clipIds[d + rule];
        if (id.isEmpty()) {
            id = "clip" + QByteArray::number(int(m_clipIds.size()));
            m_body += "<clipPath id=\"" + id + "\"><path d=\"" + d + '"' + rule + "/></clipPath>\n";
        }
        m_body += "<g clip-path=\"url(#" + id + ")\">\n";
    }

    void closeGroup()
    {
        if (m_clipOn) {
            m_body += "</g>\n";
            m_clipOn = false;
        }
    }

    double penWidth() const
    {
        const double w = m_pen.widthF();
        if (m_pen.isCosmetic()) {
            return w > 0.0 ? w : 1.0;
        }
        const double scale = std::sqrt(std::abs(m_transform.determinant()));
        return (w > 0.0 ? w : 1.0) * scale;
    }

    QByteArray strokeAttributes() const
    {
        if (m_pen.style() == Qt::NoPen || m_pen.brush().style() == Qt::NoBrush) {
            return " stroke=\"none\"";
        }
        const QColor c = m_pen.color();
        const double w = penWidth();
        QByteArray a = " stroke=\"" + colour(c) + "\" stroke-width=\"" + num(w) + '"';
        if (c.alphaF() * m_opacity < 1.0) {
            a += " stroke-opacity=\"" + num(c.alphaF() * m_opacity) + '"';
        }
        switch (m_pen.capStyle()) {
        case Qt::SquareCap:
            a += " stroke-linecap=\"square\"";
            break;
        case Qt::RoundCap:
            a += " stroke-linecap=\"round\"";
            break;
        default:
            break; // butt is SVG's default
        }
        switch (m_pen.joinStyle()) {
        case Qt::RoundJoin:
            a += " stroke-linejoin=\"round\"";
            break;
        case Qt::BevelJoin:
            a += " stroke-linejoin=\"bevel\"";
            break;
        default:
            break; // miter
        }
        if (m_pen.style() != Qt::SolidLine) {
            QByteArray dashes;
            for (const double d : m_pen.dashPattern()) {
                dashes += (dashes.isEmpty() ? "" : ",") + num(d * w);
            }
            if (!dashes.isEmpty()) {
                a += " stroke-dasharray=\"" + dashes + '"';
            }
        }
        return a;
    }

    QByteArray fillAttributes(const QPainterPath& path, bool fill) const
    {
        if (!fill || m_brush.style() == Qt::NoBrush) {
            return " fill=\"none\"";
        }
        QColor c = m_brush.color();
        if (const QGradient* g = m_brush.gradient(); g && !g->stops().isEmpty()) {
            c = g->stops().first().second;
        }
        QByteArray a = fillOf(c);
        if (path.fillRule() == Qt::OddEvenFill) {
            a += " fill-rule=\"evenodd\"";
        }
        return a;
    }

    void writePath(const QPainterPath& path, bool fill)
    {
        syncClip();
        flushText();
        const QByteArray d = pathData(m_transform.map(path));
        if (d.isEmpty()) {
            return;
        }
        m_body += "<path d=\"" + d + '"' + fillAttributes(path, fill) + strokeAttributes() + "/>\n";
    }

    QByteArray fontAttributes(const QFont& font) const
    {
        const QString family = QFontInfo(font).family();
        const char* generic = font.styleHint() == QFont::Monospace ? "monospace"
                              : font.styleHint() == QFont::Serif   ? "serif"
                                                                   : "sans-serif";
        const double px =
            font.pixelSize() > 0 ? font.pixelSize() : font.pointSizeF() * m_dpi / 72.0;
        QByteArray a = " font-family=\"'" + xmlText(family) + "', " + generic + "\" font-size=\"" +
                       num(px) + '"';
        if (font.weight() != QFont::Normal) {
            a += " font-weight=\"" + QByteArray::number(int(font.weight())) + '"';
        }
        if (font.italic()) {
            a += " font-style=\"italic\"";
        }
        return a;
    }

    QByteArray fillOf(const QColor& c) const
    {
        QByteArray a = " fill=\"" + colour(c) + '"';
        if (c.alphaF() * m_opacity < 1.0) {
            a += " fill-opacity=\"" + num(c.alphaF() * m_opacity) + '"';
        }
        return a;
    }

    void flushText()
    {
        if (m_runs.empty()) {
            return;
        }
        QByteArray t = "<text xml:space=\"preserve\" x=\"" + num(m_textOrigin.x()) + "\" y=\"" +
                       num(m_textOrigin.y()) + "\" textLength=\"" +
                       num(m_textEnd - m_textOrigin.x()) + "\" lengthAdjust=\"spacingAndGlyphs\"";
        if (!m_textTransform.isIdentity()) {
            t += " transform=\"" + matrix(m_textTransform) + '"';
        }
        if (m_runs.size() == 1) {
            t += fontAttributes(m_runs[0].font) + fillOf(m_runs[0].colour) + '>' +
                 xmlText(m_runs[0].text);
        } else {
            t += '>';
            for (const SvgTextRun& run : m_runs) {
                t += "<tspan" + fontAttributes(run.font) + fillOf(run.colour) + '>' +
                     xmlText(run.text) + "</tspan>";
            }
        }
        m_body += t + "</text>\n";
        m_runs.clear();
    }

    int m_dpi;
    QByteArray m_body;
    QPen m_pen;
    QBrush m_brush;
    QTransform m_transform;
    double m_opacity = 1.0;
    QPainter::RenderHints m_hints;
    QPainterPath m_clip;
    bool m_clipOn = false;
    QPainterPath m_wantClipPath;
    bool m_wantClip = false;
    std::map<QByteArray, QByteArray> m_clipIds; // path data -> id of its <clipPath>
    std::vector<SvgTextRun> m_runs;
    QTransform m_textTransform;
    QPointF m_textOrigin;
    double m_textEnd = 0.0;
};

SvgDevice::SvgDevice(int width, int height, int dpi, QString title)
    : m_width(std::max(1, width)), m_height(std::max(1, height)), m_dpi(std::max(1, dpi)),
      m_title(std::move(title)), m_engine(std::make_unique<SvgPaintEngine>(m_dpi))
{
}

SvgDevice::~SvgDevice() = default;

QPaintEngine* SvgDevice::paintEngine() const
{
    return m_engine.get();
}

QByteArray SvgDevice::document() const
{
    const QByteArray w = QByteArray::number(m_width);
    const QByteArray h = QByteArray::number(m_height);
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
           "<svg xmlns=\"http://www.w3.org/2000/svg\" "
           "xmlns:xlink=\"http://www.w3.org/1999/xlink\" version=\"1.1\" width=\"" +
           w + "\" height=\"" + h + "\" viewBox=\"0 0 " + w + ' ' + h + "\">\n<title>" +
           xmlText(m_title) + "</title>\n<desc>Made by SOSREP Studio</desc>\n" + m_engine->body() +
           "</svg>\n";
}

int SvgDevice::metric(PaintDeviceMetric metric) const
{
    switch (metric) {
    case PdmWidth:
        return m_width;
    case PdmHeight:
        return m_height;
    case PdmWidthMM:
        return int(m_width * 25.4 / m_dpi + 0.5);
    case PdmHeightMM:
        return int(m_height * 25.4 / m_dpi + 0.5);
    case PdmNumColors:
        return INT_MAX;
    case PdmDepth:
        return 32;
    case PdmDpiX:
    case PdmDpiY:
    case PdmPhysicalDpiX:
    case PdmPhysicalDpiY:
        return m_dpi;
    case PdmDevicePixelRatio:
        return 1;
    case PdmDevicePixelRatioScaled:
        return int(devicePixelRatioFScale());
    }
    return 0;
}

} // namespace sosrep::ui
