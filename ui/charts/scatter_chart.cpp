#include "ui/charts/scatter_chart.h"

#include "ui/charts/chart_export.h"
#include "ui/charts/chart_theme.h"
#include "ui/charts/log_axis.h"
#include "ui/charts/nice_axis.h"
#include "ui/charts/series_palette.h"

#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QCursor>
#include <QLegend>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QToolTip>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace tw::ui {

ScatterChart::ScatterChart(QWidget *parent) : QWidget(parent) {
  m_chart = new QChart();
  m_chart->setBackgroundVisible(false);
  m_chart->setPlotAreaBackgroundBrush(palette().color(QPalette::Base));
  m_chart->setPlotAreaBackgroundPen(QPen(palette().color(QPalette::Mid)));
  m_chart->setPlotAreaBackgroundVisible(true);
  m_chart->setMargins(QMargins(2, 2, 2, 2));
  m_chart->legend()->hide();  // one series: the axis titles say what it is
  m_chart->setAnimationOptions(QChart::NoAnimation);
  m_chart->setLocalizeNumbers(true);  // axis labels in the locale, as every number in Studio
  m_view = new QChartView(m_chart, this);
  followPaletteTheme(m_view);
  m_view->setRenderHint(QPainter::Antialiasing);
  m_view->setFrameShape(QFrame::NoFrame);
  m_view->setBackgroundBrush(palette().brush(QPalette::Window));
  auto *layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(m_view);
  ChartExport::install(this, [this] {
    return [points = m_points, x = m_x, y = m_y] {
      // A category's name rather than its index; the axes' titles as column names.
      auto shown = [](const Axis &axis, double value) {
        return axis.categories.isEmpty() ? csvNumber(value) : axis.categories.value(static_cast<int>(value));
      };
      CsvTable table{{QStringLiteral("label"), x.title.isEmpty() ? QStringLiteral("x") : x.title,
                      y.title.isEmpty() ? QStringLiteral("y") : y.title},
                     {}};
      for (const Point &p : points) table.rows.append({p.label, shown(x, p.x), shown(y, p.y)});
      return table;
    };
  });
}

ScatterChart::~ScatterChart() = default;

QAbstractAxis *ScatterChart::makeAxis(const Axis &axis, double min, double max) const {
  QAbstractAxis *made = nullptr;
  if (!axis.categories.isEmpty()) {
    auto *categories = new QCategoryAxis();
    // Labels on the values 0, 1, ... rather than between boundaries.
    categories->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    for (int i = 0; i < axis.categories.size(); ++i) categories->append(axis.categories[i], i);
    categories->setRange(-0.5, axis.categories.size() - 0.5);
    made = categories;
  } else if (axis.log) {
    auto *log = new QLogValueAxis();
    setDecadeRange(log, min, max, /*marginDecades=*/0.04);  // a point at 1e-3 stays off the frame
    made = log;
  } else {
    auto *value = new QValueAxis();
    value->setTickType(QValueAxis::TicksDynamic);
    value->setLabelFormat(QStringLiteral("%.3g"));
    padRange(&min, &max);
    setNiceRange(value, min, max, 6);
    made = value;
  }
  made->setTitleText(axis.title);
  made->setLabelsFont(font());
  styleAxisGrid(made, palette());
  return made;
}

void ScatterChart::setPoints(const Axis &x, const Axis &y, std::vector<Point> points) {
  m_chart->removeAllSeries();
  m_line = nullptr;
  m_chart->legend()->hide();
  for (QAbstractAxis *axis : m_chart->axes()) {
    m_chart->removeAxis(axis);
    delete axis;
  }
  m_x = x;
  m_y = y;
  points.erase(std::remove_if(points.begin(), points.end(),
                              [&](const Point &p) {
                                return !std::isfinite(p.x) || !std::isfinite(p.y) || (x.log && p.x <= 0) ||
                                       (y.log && p.y <= 0);
                              }),
               points.end());
  m_points = std::move(points);

  m_series = new QScatterSeries();
  m_series->setMarkerSize(9);
  QColor color = seriesColor(0);
  m_series->setBorderColor(color.darker(130));
  color.setAlpha(170);  // overlapping runs show as a darker dot
  m_series->setColor(color);
  QList<QPointF> drawn;
  double minX = 0, maxX = 1, minY = 0, maxY = 1;
  for (size_t i = 0; i < m_points.size(); ++i) {
    const Point &p = m_points[i];
    drawn.append(QPointF(p.x, p.y));
    minX = i == 0 ? p.x : std::min(minX, p.x);
    maxX = i == 0 ? p.x : std::max(maxX, p.x);
    minY = i == 0 ? p.y : std::min(minY, p.y);
    maxY = i == 0 ? p.y : std::max(maxY, p.y);
  }
  m_series->replace(drawn);
  m_chart->addSeries(m_series);
  QAbstractAxis *xAxis = makeAxis(x, minX, maxX);
  QAbstractAxis *yAxis = makeAxis(y, minY, maxY);
  m_chart->addAxis(xAxis, Qt::AlignBottom);
  m_chart->addAxis(yAxis, Qt::AlignLeft);
  m_series->attachAxis(xAxis);
  m_series->attachAxis(yAxis);
  connect(m_series, &QScatterSeries::hovered, this, [this](const QPointF &point, bool state) {
    if (!state) {
      QToolTip::hideText();
      return;
    }
    const QStringList labels = labelsAt(point);
    if (!labels.isEmpty()) QToolTip::showText(QCursor::pos(), labels.join(QLatin1Char('\n')), m_view);
  });
}

void ScatterChart::setLine(const QList<QPointF> &points, const QString &name) {
  if (m_line) {
    m_chart->removeSeries(m_line);
    delete m_line;
    m_line = nullptr;
  }
  m_chart->legend()->setVisible(!points.isEmpty());
  if (points.isEmpty() || !m_series) return;
  m_line = new QLineSeries();
  m_line->setName(name);
  QPen pen(seriesColor(1));
  pen.setWidthF(2.0);
  m_line->setPen(pen);
  m_line->replace(points);
  m_chart->addSeries(m_line);
  for (QAbstractAxis *axis : m_series->attachedAxes()) m_line->attachAxis(axis);
  // The line's points may lie outside what the scatter alone spanned.
  for (QAbstractAxis *axis : m_series->attachedAxes()) {
    auto *value = qobject_cast<QValueAxis *>(axis);
    if (!value) continue;
    double min = value->min(), max = value->max();
    for (const QPointF &p : points) {
      const double v = axis->orientation() == Qt::Horizontal ? p.x() : p.y();
      min = std::min(min, v);
      max = std::max(max, v);
    }
    if (min < value->min() || max > value->max()) setNiceRange(value, min, max, 6);
  }
  m_series->setName(tr("Trials"));
}

QAbstractAxis *ScatterChart::drawnAxis(Qt::Orientation orientation) const {
  const auto axes = m_chart->axes(orientation);
  return axes.isEmpty() ? nullptr : axes.first();
}

QList<QPointF> ScatterChart::drawnLine() const { return m_line ? m_line->points() : QList<QPointF>(); }

QList<QPointF> ScatterChart::drawnPoints() const { return m_series ? m_series->points() : QList<QPointF>(); }

QStringList ScatterChart::drawnLabels() const {
  QStringList labels;
  for (const Point &p : m_points) labels << p.label;
  return labels;
}

QStringList ScatterChart::labelsAt(const QPointF &point) const {
  QStringList labels;
  for (const Point &p : m_points)
    if (p.x == point.x() && p.y == point.y()) labels << (p.detail.isEmpty() ? p.label : p.label + QStringLiteral(": ") + p.detail);
  const int shown = 12;  // a tooltip taller than the screen helps nobody
  if (labels.size() > shown) {
    const int more = static_cast<int>(labels.size()) - shown;
    labels = labels.mid(0, shown);
    labels << tr("… and %1 more").arg(more);
  }
  return labels;
}

}  // namespace tw::ui
