#include "ui/charts/contour_plot.h"

#include "ui/charts/color_scale.h"

#include <QPainter>

#include <cmath>
#include <functional>

namespace tw::ui {

namespace {

QString label(double value) { return QString::number(value, 'g', 3); }

}  // namespace

ContourPlot::ContourPlot(QWidget *parent) : QWidget(parent) { setAttribute(Qt::WA_OpaquePaintEvent, false); }

void ContourPlot::setData(Grid grid, std::vector<QPointF> trials, const QString &valueTitle) {
  m_grid = std::move(grid);
  m_trials = std::move(trials);
  m_valueTitle = valueTitle;
  bool any = false;
  for (double v : m_grid.values) {
    if (!std::isfinite(v)) continue;
    m_low = any ? std::min(m_low, v) : v;
    m_high = any ? std::max(m_high, v) : v;
    any = true;
  }
  if (!any || m_high <= m_low) m_high = m_low + 1.0;
  update();
}

void ContourPlot::clear() { setData({}, {}, {}); }

QRectF ContourPlot::plotRect() const {
  const QFontMetricsF metrics(font());
  const double left = metrics.horizontalAdvance(QStringLiteral("0.000e-00")) + 8;
  const double bottom = metrics.height() * 3;
  const double right = 70;  // the colour bar and its labels
  return QRectF(left, metrics.height(), std::max(10.0, width() - left - right), std::max(10.0, height() - bottom - metrics.height()));
}

double ContourPlot::fraction(const Axis &axis, double value) const {
  if (!axis.categories.isEmpty()) return axis.categories.size() <= 1 ? 0.5 : (value + 0.5) / axis.categories.size();
  if (axis.log && axis.low > 0 && axis.high > axis.low && value > 0)
    return (std::log(value) - std::log(axis.low)) / (std::log(axis.high) - std::log(axis.low));
  return axis.high > axis.low ? (value - axis.low) / (axis.high - axis.low) : 0.5;
}

void ContourPlot::paintEvent(QPaintEvent *) {
  QPainter painter(this);
  painter.fillRect(rect(), palette().window());
  const QRectF plot = plotRect();
  painter.fillRect(plot, palette().base());
  if (m_grid.columns > 0 && m_grid.rows > 0 &&
      m_grid.values.size() == static_cast<size_t>(m_grid.columns) * static_cast<size_t>(m_grid.rows)) {
    const double w = plot.width() / m_grid.columns, h = plot.height() / m_grid.rows;
    for (int row = 0; row < m_grid.rows; ++row)
      for (int column = 0; column < m_grid.columns; ++column) {
        const double v = m_grid.values[static_cast<size_t>(row) * m_grid.columns + column];
        if (!std::isfinite(v)) continue;
        const QRectF cell(plot.left() + column * w, plot.bottom() - (row + 1) * h, w + 0.5, h + 0.5);
        painter.fillRect(cell, viridis((v - m_low) / (m_high - m_low)));
      }
  }
  painter.setRenderHint(QPainter::Antialiasing);
  painter.setPen(QPen(Qt::white, 1.2));
  painter.setBrush(QColor(0x20, 0x20, 0x20));
  for (const QPointF &trial : m_trials) {
    const double fx = fraction(m_grid.x, trial.x()), fy = fraction(m_grid.y, trial.y());
    if (!std::isfinite(fx) || !std::isfinite(fy)) continue;
    painter.drawEllipse(QPointF(plot.left() + fx * plot.width(), plot.bottom() - fy * plot.height()), 3.5, 3.5);
  }
  painter.setBrush(Qt::NoBrush);
  painter.setPen(palette().color(QPalette::Mid));
  painter.drawRect(plot);

  // Axes: the ends (or the categories) and the titles.
  painter.setPen(palette().color(QPalette::Text));
  const QFontMetricsF metrics(font());
  auto xLabel = [&](double f, const QString &text) {
    const double x = plot.left() + f * plot.width();
    painter.drawText(QRectF(x - 60, plot.bottom() + 2, 120, metrics.height()), Qt::AlignHCenter, text);
  };
  auto yLabel = [&](double f, const QString &text) {
    const double y = plot.bottom() - f * plot.height();
    painter.drawText(QRectF(0, y - metrics.height() / 2, plot.left() - 4, metrics.height()), Qt::AlignRight, text);
  };
  for (const auto &[axis, draw] : {std::pair{&m_grid.x, std::function<void(double, const QString &)>(xLabel)},
                                   std::pair{&m_grid.y, std::function<void(double, const QString &)>(yLabel)}}) {
    if (!axis->categories.isEmpty()) {
      for (int i = 0; i < axis->categories.size(); ++i) draw(fraction(*axis, i), axis->categories[i]);
    } else {
      draw(0.0, label(axis->low));
      draw(1.0, label(axis->high));
    }
  }
  painter.drawText(QRectF(plot.left(), plot.bottom() + metrics.height() + 4, plot.width(), metrics.height()),
                   Qt::AlignHCenter, m_grid.x.title);
  painter.save();
  painter.translate(metrics.height() * 0.2, plot.center().y());
  painter.rotate(-90);
  painter.drawText(QRectF(-plot.height() / 2, 0, plot.height(), metrics.height()), Qt::AlignHCenter, m_grid.y.title);
  painter.restore();

  // Colour bar.
  const QRectF bar(plot.right() + 10, plot.top(), 12, plot.height());
  for (int i = 0; i < static_cast<int>(bar.height()); ++i)
    painter.fillRect(QRectF(bar.left(), bar.bottom() - i - 1, bar.width(), 1.5), viridis(i / bar.height()));
  painter.drawRect(bar);
  painter.drawText(QRectF(bar.right() + 3, bar.top(), 60, metrics.height()), Qt::AlignLeft, label(m_high));
  painter.drawText(QRectF(bar.right() + 3, bar.bottom() - metrics.height(), 60, metrics.height()), Qt::AlignLeft,
                   label(m_low));
  painter.drawText(QRectF(plot.left(), 0, plot.width(), metrics.height()), Qt::AlignHCenter, m_valueTitle);
}

}  // namespace tw::ui
