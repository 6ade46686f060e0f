// SPDX-License-Identifier: MIT
#include "ui/plots/fd_plot.h"

#include "ui/plots/plot_style.h"

#include <cmath>
#include <limits>

namespace sosrep::ui {
namespace {

/// Breaks a sentence into lines of at most `width` characters (a plot title does not wrap).
QString wrapped(const QString& text, int width)
{
    QStringList lines{QString()};
    for (const QString& word : text.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        if (!lines.last().isEmpty() && lines.last().size() + 1 + word.size() > width) {
            lines << QString();
        }
        lines.last() += (lines.last().isEmpty() ? QString() : QStringLiteral(" ")) + word;
    }
    return lines.join(QLatin1Char('\n'));
}

} // namespace

FdPlot::FdPlot(QWidget* parent) : QCustomPlot(parent)
{
    plotLayout()->insertRow(0);
    m_title = new QCPTextElement(
        this, QStringLiteral("Fisher divergence (score matching) on validation rows"),
        QFont(font().family(), 10, QFont::Bold));
    plotLayout()->addElement(0, 0, m_title);
    xAxis->setScaleType(QCPAxis::stLogarithmic);
    xAxis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
    xAxis->setLabel(QStringLiteral("length scale ℓ (log scale)"));
    // As in the paper's Fig. 2: J shifted to be positive, on a log scale. J spans many decades
    // (10^8 at tiny l, -10^3 at the minimum), which a linear axis flattens.
    yAxis->setLabel(QStringLiteral("log₁₀(J(ℓ) − min J + 1),  J = mean[tr ∇²log p + ½|∇log p|²]"));
    m_curve = addGraph();
    m_curve->setPen(QPen(colors::natural(), 2));
    m_curve->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssCircle, colors::natural(), Qt::white, 7));
    m_curve->setName(QStringLiteral("J(ℓ) (click a point to refit there)"));
    m_selected = addGraph();
    m_selected->setLineStyle(QCPGraph::lsNone);
    m_selected->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssStar, QPen(colors::standard(), 2), QBrush(), 16));
    m_selected->setName(QStringLiteral("selected"));
    m_fdChoice = addGraph();
    m_fdChoice->setLineStyle(QCPGraph::lsNone);
    m_fdChoice->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssDiamond, QPen(Qt::black, 2), QBrush(), 13));
    m_fdChoice->setName(QStringLiteral("Fisher-divergence choice ℓ_FD"));
    m_members = addGraph();
    m_members->setLineStyle(QCPGraph::lsNone);
    m_members->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssSquare, QPen(colors::kde(), 2), QBrush(), 13));
    m_members->setName(QStringLiteral("ensemble members"));
    legend->setVisible(true);
    legend->setFont(QFont(font().family(), 8));
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    connect(this, &QCustomPlot::mousePress, this, &FdPlot::onClick);
}

void FdPlot::setCurve(const std::vector<FdPoint>& curve, const FdChoice& choice)
{
    m_points = curve;
    double minJ = std::numeric_limits<double>::infinity();
    for (const FdPoint& p : curve) {
        minJ = std::isfinite(p.value) ? std::min(minJ, p.value) : minJ;
    }
    auto shown = [minJ](double j) {
        return std::isfinite(j) ? std::log10(j - minJ + 1.0) : qQNaN();
    };
    QVector<double> x, y;
    for (const FdPoint& p : curve) {
        x << p.lengthScale;
        y << shown(p.value);
    }
    m_curve->setData(x, y, true);
    auto mark = [&](QCPGraph* g, const std::vector<int>& points) {
        g->data()->clear();
        for (int i : points) {
            if (i >= 0 && i < int(curve.size())) {
                g->addData(curve[size_t(i)].lengthScale, shown(curve[size_t(i)].value));
            }
        }
        // Only what the rule used is in the legend.
        if (g->data()->isEmpty()) {
            g->removeFromLegend();
        } else if (!legend->hasItemWithPlottable(g)) {
            g->addToLegend();
        }
    };
    const bool done = choice.selected >= 0 && choice.selected < int(curve.size());
    mark(m_selected, {done ? choice.selected : -1});
    mark(m_fdChoice, {done && choice.fdIndex != choice.selected ? choice.fdIndex : -1});
    mark(m_members, done ? choice.members : std::vector<int>{});
    if (done) {
        const double l = curve[size_t(choice.selected)].lengthScale;
        QString head = QStringLiteral("Selected ℓ = %1").arg(l, 0, 'g', 4);
        if (choice.fdIndex >= 0 && choice.fdIndex != choice.selected) {
            const double lfd = curve[size_t(choice.fdIndex)].lengthScale;
            head += QStringLiteral(" = %1 × ℓ_FD (ℓ_FD = %2)")
                        .arg(l / lfd, 0, 'g', 3)
                        .arg(lfd, 0, 'g', 4);
        }
        if (!choice.agreement.isEmpty()) {
            head += QStringLiteral("; ") + choice.agreement;
        }
        m_title->setText(head + QLatin1Char('\n') + wrapped(choice.words, 100));
    } else {
        m_title->setText(
            curve.empty()
                ? QStringLiteral("Fisher divergence: no sweep yet (ℓ fixed or not fitted)")
                : QStringLiteral("Fisher-divergence sweep running… %1 points").arg(curve.size()));
    }
    rescaleAxes();
    // Symmetric log padding on x, 5 % on y.
    xAxis->setRange(xAxis->range().lower / 1.5, xAxis->range().upper * 1.5);
    yAxis->scaleRange(1.1, yAxis->range().center());
    replot(QCustomPlot::rpQueuedReplot);
}

void FdPlot::onClick(QMouseEvent* event)
{
    if (m_points.empty()) {
        return;
    }
    // Nearest point in screen space, within 12 pixels.
    double best = 12.0;
    int index = -1;
    for (size_t i = 0; i < m_points.size(); ++i) {
        if (!std::isfinite(m_points[i].value)) {
            continue;
        }
        const double px = xAxis->coordToPixel(m_points[i].lengthScale);
        const double py = m_curve->valueAxis()->coordToPixel(m_curve->data()->at(int(i))->value);
        const double d = std::hypot(px - event->position().x(), py - event->position().y());
        if (d < best) {
            best = d;
            index = int(i);
        }
    }
    if (index >= 0) {
        emit lengthScaleClicked(m_points[size_t(index)].lengthScale);
    }
}

} // namespace sosrep::ui
