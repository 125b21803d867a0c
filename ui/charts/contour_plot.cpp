#include "ui/charts/contour_plot.h"

#include "ui/common/number_format.h"

#include "ui/charts/chart_export.h"
#include "ui/charts/color_scale.h"

#include <QPainter>

#include <cmath>

namespace tw::ui {

namespace {

QString label(double value) { return formatNumber(value, 3); }

}  // namespace

ContourPlot::ContourPlot(QWidget *parent) : QWidget(parent) {
  setAttribute(Qt::WA_OpaquePaintEvent, false);
  // The numbers behind the picture: each cell's estimate at its centre and each trial, in the
  // axes' unit coordinates (0 at the left or bottom, 1 at the right or top) as the analysis
  // reports them; the axes' ticks say which parameter values those are.
  ChartExport::install(this, [this]() -> CsvMaker {
    return [grid = m_grid, trials = m_trials, value = m_valueTitle] {
      CsvTable table{{QStringLiteral("kind"), grid.x.title + QStringLiteral(" (unit)"),
                      grid.y.title + QStringLiteral(" (unit)"), value},
                     {}};
      for (int row = 0; row < grid.size; ++row)
        for (int column = 0; column < grid.size; ++column)
          table.rows.append({QStringLiteral("cell"), csvNumber((column + 0.5) / grid.size),
                             csvNumber((row + 0.5) / grid.size),
                             csvNumber(grid.values[size_t(row) * size_t(grid.size) + size_t(column)])});
      for (const QPointF &trial : trials)
        table.rows.append({QStringLiteral("trial"), csvNumber(trial.x()), csvNumber(trial.y()), QString()});
      return table;
    };
  });
}

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

void ContourPlot::paintEvent(QPaintEvent *) {
  QPainter painter(this);
  painter.fillRect(rect(), palette().window());
  const QRectF plot = plotRect();
  painter.fillRect(plot, palette().base());
  const int n = m_grid.size;
  if (n > 0 && m_grid.values.size() == static_cast<size_t>(n) * static_cast<size_t>(n)) {
    const double w = plot.width() / n, h = plot.height() / n;
    for (int row = 0; row < n; ++row)
      for (int column = 0; column < n; ++column) {
        const double v = m_grid.values[static_cast<size_t>(row) * n + column];
        if (!std::isfinite(v)) continue;
        const QRectF cell(plot.left() + column * w, plot.bottom() - (row + 1) * h, w + 0.5, h + 0.5);
        painter.fillRect(cell, viridis((v - m_low) / (m_high - m_low)));
      }
  }
  painter.setRenderHint(QPainter::Antialiasing);
  painter.setPen(QPen(Qt::white, 1.2));
  painter.setBrush(QColor(0x20, 0x20, 0x20));
  for (const QPointF &trial : m_trials) {
    const double fx = trial.x(), fy = trial.y();
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
  for (const auto &[unit, text] : m_grid.x.ticks) xLabel(unit, text);
  for (const auto &[unit, text] : m_grid.y.ticks) yLabel(unit, text);
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
