#include "ui/charts/metric_chart.h"

#include "ui/charts/chart_export.h"
#include "ui/charts/chart_legend.h"
#include "ui/charts/chart_theme.h"
#include "ui/charts/decimation.h"
#include "ui/charts/log_axis.h"
#include "ui/charts/nice_axis.h"
#include "ui/charts/series_palette.h"
#include "ui/charts/smoothing.h"
#include "ui/charts/zoom_chart_view.h"
#include "ui/studio_log.h"

#include <QAction>
#include <QChart>
#include <QChartView>
#include <QLegendMarker>
#include <QCursor>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QToolTip>
#include <QPen>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace tw::ui {

MetricChart::MetricChart(const QString &title, QWidget *parent, MetricChartOptions options)
    : QWidget(parent), m_options(std::move(options)) {
  m_chart = new QChart();
  m_chart->setTitle(title);
  QFont titleFont = font();
  titleFont.setBold(true);
  m_chart->setTitleFont(titleFont);
  // Blend into the window like a native widget; only the plot area is a white "document".
  m_chart->setBackgroundVisible(false);
  m_chart->setPlotAreaBackgroundBrush(palette().color(QPalette::Base));
  m_chart->setPlotAreaBackgroundPen(QPen(palette().color(QPalette::Mid)));
  m_chart->setPlotAreaBackgroundVisible(true);
  m_chart->setMargins(QMargins(2, 2, 2, 2));
  // The legend is m_legend under the view; Qt Charts' own would cut the names on a narrow chart.
  m_chart->legend()->setVisible(false);
  m_chart->setLocalizeNumbers(true);  // axis labels in the locale, as every number in Studio
  m_chart->setAnimationOptions(QChart::NoAnimation);  // live updates would animate forever

  m_stepAxis = new QValueAxis(m_chart);
  m_stepAxis->setTitleText(xAxisTitle(XAxisKind::Step));
  m_valueAxis = new QValueAxis(m_chart);
  m_valueAxis->setLabelFormat(m_options.valueLabelFormat);
  for (QValueAxis *axis : {m_stepAxis, m_valueAxis}) {
    // Set once: a tick type change only takes effect at the next layout pass, a range at once.
    axis->setTickType(QValueAxis::TicksDynamic);
    axis->setLabelsFont(font());
    QFont axisTitle = font();
    axisTitle.setPointSizeF(font().pointSizeF() * 0.9);
    axis->setTitleFont(axisTitle);
  }
  resetAxes();
  m_chart->addAxis(m_stepAxis, Qt::AlignBottom);
  m_chart->addAxis(m_valueAxis, Qt::AlignLeft);

  m_view = new ZoomChartView(m_chart, this);
  connect(m_view, &ZoomChartView::zoomRequested, this, &MetricChart::zoomToSteps);
  connect(m_view, &ZoomChartView::zoomByRequested, this, &MetricChart::zoomBy);
  connect(m_view, &ZoomChartView::panRequested, this, &MetricChart::pan);
  connect(m_view, &ZoomChartView::resetRequested, this, &MetricChart::resetZoom);
  m_view->setRenderHint(QPainter::Antialiasing);
  followPaletteTheme(m_view);
  m_view->setFrameShape(QFrame::NoFrame);
  m_view->setBackgroundBrush(palette().brush(QPalette::Window));
  m_legend = new ChartLegend(this);
  auto *layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);
  layout->addWidget(m_view, 1);
  layout->addWidget(m_legend);

  auto *showAll = new QAction(tr("Show All Steps"), this);
  showAll->setObjectName(QStringLiteral("showAllSteps"));
  connect(showAll, &QAction::triggered, this, &MetricChart::resetZoom);
  addAction(showAll);  // first on the context menu, before the exports
  ChartExport::install(this, [this] { return csvMaker(); });
}

MetricChart::~MetricChart() = default;

CsvMaker MetricChart::csvMaker() const {
  // Every point received, before smoothing and decimation: the data, not the drawing of it.
  std::vector<std::pair<QString, QList<QPointF>>> series;
  for (const std::string &key : m_order) {
    const Series &s = m_series.at(key);
    QList<QPointF> points;
    points.reserve(static_cast<qsizetype>(s.received.size()));
    for (const auto &p : s.received) points.append(QPointF(static_cast<double>(p.step), p.value));
    series.emplace_back(s.line->name(), std::move(points));
  }
  return [series = std::move(series)] {
    // Column names are for programs reading the file, so they stay the same in every language.
    CsvTable table{{QStringLiteral("series"), QStringLiteral("step"), QStringLiteral("value")}, {}};
    for (const auto &[name, points] : series)
      for (const QPointF &p : points) table.rows.append({name, csvNumber(p.x()), csvNumber(p.y())});
    return table;
  };
}

void MetricChart::setSeriesPen(const std::string &key, const QColor &color, double width, Qt::PenStyle style) {
  auto it = m_series.find(key);
  if (it == m_series.end()) return;
  QPen pen(color);
  pen.setWidthF(width);
  pen.setStyle(style);
  it->second.line->setPen(pen);
  updateLegend();
}

QColor MetricChart::seriesPenColor(const std::string &key) const {
  auto it = m_series.find(key);
  return it == m_series.end() ? QColor() : it->second.line->pen().color();
}

QString MetricChart::seriesLabel(const std::string &key) const {
  auto it = m_series.find(key);
  return it == m_series.end() ? QString() : it->second.line->name();
}

void MetricChart::removeAllSeries() {
  // removeSeries hands ownership back; deleteLater, as a hover signal of the series may be on
  // its way.
  for (auto &[key, series] : m_series) {
    m_chart->removeSeries(series.line);
    series.line->deleteLater();
  }
  for (auto &[key, marker] : m_markers) {
    m_chart->removeSeries(marker);
    marker->deleteLater();
  }
  m_series.clear();
  m_markers.clear();
  m_markerSources.clear();
  m_order.clear();
  clear();
  updateLegend();
}

void MetricChart::setMarker(const std::string &key, const QString &label, double step, double value,
                            const QColor &color, int64_t run) {
  if (!std::isfinite(value)) return;
  QScatterSeries *marker = nullptr;
  if (auto it = m_markers.find(key); it != m_markers.end()) {
    marker = it->second;
  } else {
    marker = new QScatterSeries(m_chart);
    marker->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
    marker->setMarkerSize(10);
    marker->setUseOpenGL(false);
    m_chart->addSeries(marker);
    marker->attachAxis(m_stepAxis);
    marker->attachAxis(m_logScale ? static_cast<QAbstractAxis *>(m_logAxis) : m_valueAxis);
    // The legend names the runs; a dot per recorded figure would crowd it.
    for (QLegendMarker *entry : m_chart->legend()->markers(marker)) entry->setVisible(false);
    connect(marker, &QScatterSeries::hovered, this, [this, marker](const QPointF &point, bool state) {
      if (!state) {
        QToolTip::hideText();
        return;
      }
      QToolTip::showText(QCursor::pos(), pointText(marker->name(), point), m_view);
    });
    m_markers.emplace(key, marker);
  }
  marker->setName(label);
  marker->setColor(color);
  marker->setBorderColor(palette().color(QPalette::WindowText));
  m_markerSources[key] = {step, value, run};
  placeMarker(key);
  updateAxes();
}

QPointF MetricChart::markerPoint(const std::string &key) const {
  auto it = m_markers.find(key);
  return it == m_markers.end() || it->second->count() == 0 ? QPointF() : it->second->at(0);
}

void MetricChart::includeInBounds(const QPointF &p) {
  if (!m_hasBounds) {
    m_minX = m_maxX = p.x();
    m_minY = m_maxY = p.y();
    m_hasBounds = true;
  }
  m_minX = std::min(m_minX, p.x());
  m_maxX = std::max(m_maxX, p.x());
  m_minY = std::min(m_minY, p.y());
  m_maxY = std::max(m_maxY, p.y());
}

void MetricChart::addSeries(const std::string &key, const QString &label, int64_t run) {
  if (hasSeries(key)) return;
  Series series;
  series.run = run;
  series.line = new QLineSeries(m_chart);
  series.line->setName(label);
  QPen pen(seriesColor(m_order.size()));
  pen.setWidthF(1.6);
  series.line->setPen(pen);
  // OpenGL would be faster but is unavailable offscreen and on many remote desktops.
  series.line->setUseOpenGL(false);
  m_chart->addSeries(series.line);
  series.line->attachAxis(m_stepAxis);
  series.line->attachAxis(m_logScale ? static_cast<QAbstractAxis *>(m_logAxis) : m_valueAxis);
  // Hover read-out: the point under the pointer, with its series.
  connect(series.line, &QLineSeries::hovered, this, [this, label](const QPointF &point, bool state) {
    if (!state) {
      QToolTip::hideText();
      return;
    }
    QToolTip::showText(QCursor::pos(), pointText(label, point), m_view);
  });
  m_series.emplace(key, std::move(series));
  m_order.push_back(key);
  if (!m_legendForced) m_legendVisible = m_order.size() <= 12;
  updateLegend();
}

double MetricChart::visibleFrom() const { return m_stepAxis->min(); }
double MetricChart::visibleTo() const { return m_stepAxis->max(); }

void MetricChart::zoomToSteps(double from, double to) {
  if (!(to > from) || !std::isfinite(from) || !std::isfinite(to)) return;
  // Not narrower than a couple of steps: below that there is nothing more to see.
  if (to - from < minimumSpan()) {
    const double middle = (from + to) / 2;
    from = middle - minimumSpan() / 2;
    to = middle + minimumSpan() / 2;
  }
  m_zoomed = true;
  m_viewFrom = from;
  m_viewTo = to;
  redrawAll();
}

void MetricChart::zoomBy(double factor, double aroundStep) {
  if (!m_hasBounds || factor <= 0) return;
  const double from = visibleFrom(), to = visibleTo();
  const double newFrom = aroundStep - (aroundStep - from) * factor, newTo = aroundStep + (to - aroundStep) * factor;
  // Zooming out past everything is the same as showing everything.
  if (newFrom <= m_minX && newTo >= m_maxX) {
    resetZoom();
    return;
  }
  zoomToSteps(newFrom, newTo);
}

void MetricChart::pan(double steps) {
  if (!m_hasBounds || steps == 0) return;
  zoomToSteps(visibleFrom() + steps, visibleTo() + steps);
}

void MetricChart::resetZoom() {
  if (!m_zoomed) return;
  m_zoomed = false;
  redrawAll();
}

void MetricChart::redrawAll() {
  for (auto &[key, series] : m_series) redraw(series);
  updateAxes();
}

void MetricChart::appendPoints(const std::string &key, const std::vector<tracking::MetricPoint> &points) {
  auto found = m_series.find(key);
  if (found == m_series.end()) {
    studioLog()->warn("chart '{}' has no series '{}'", m_chart->title().toStdString(), key);
    return;
  }
  if (points.empty()) return;
  Series &series = found->second;
  series.received.insert(series.received.end(), points.begin(), points.end());
  RunTimeline &timeline = m_timelines[series.run];
  for (const auto &point : points) timeline.noteTime(point.timeMs);
  if (m_xKind == XAxisKind::WallTime) {
    // A run that outgrows the axis' unit (minutes past ten of them) is drawn again in the next.
    const double latest = timeline.secondsAt(points.back().timeMs);
    if (std::isfinite(latest) && timeUnitFor(latest) > m_timeUnit) {
      remap();
      return;
    }
  }
  QList<QPointF> added;
  added.reserve(static_cast<qsizetype>(points.size()));
  for (const auto &point : points) {
    if (!std::isfinite(point.value)) continue;  // a diverged loss must not wreck the axes
    const double x = xOf(series.run, point);
    if (!std::isfinite(x)) continue;  // not placeable on this axis (yet)
    const QPointF p(x, point.value);
    added.append(p);
    includeInBounds(p);
  }
  const bool wasUnplaced = series.raw.isEmpty();
  series.raw.append(added);
  if (wasUnplaced && m_xKind != XAxisKind::Step) updateLegend();  // the "not placed" note may go or come
  redraw(series);
  updateAxes();
}

QList<QPointF> MetricChart::prepared(const QList<QPointF> &raw) const {
  QList<QPointF> points;
  points.reserve(raw.size());
  DebiasedEma ema(m_smoothing);
  for (const QPointF &p : raw) {
    const double y = ema.next(p.y());
    if (m_logScale && y <= 0.0) continue;
    points.append(QPointF(p.x(), y));
  }
  return points;
}

void MetricChart::redraw(Series &series) {
  // Smoothing runs over every point received, then decimation picks what to draw: the curve's
  // shape does not depend on the screen. replace() redraws once, not per point.
  series.shown = prepared(series.raw);
  series.line->replace(minMaxDecimate(visible(series.shown), m_options.decimateAbove));
}

QList<QPointF> MetricChart::visible(const QList<QPointF> &shown) const {
  if (!m_zoomed) return shown;
  // Points arrive in step order. One point beyond each end keeps the line running to the edges.
  auto first = std::lower_bound(shown.begin(), shown.end(), m_viewFrom,
                                [](const QPointF &p, double x) { return p.x() < x; });
  auto last = std::upper_bound(first, shown.end(), m_viewTo, [](double x, const QPointF &p) { return x < p.x(); });
  if (first != shown.begin()) --first;
  if (last != shown.end()) ++last;
  return QList<QPointF>(first, last);
}

void MetricChart::setSmoothing(double weight) {
  weight = std::clamp(weight, 0.0, 0.999);
  if (weight == m_smoothing) return;
  m_smoothing = weight;
  redrawAll();
}

void MetricChart::setLogScale(bool on) {
  if (on == m_logScale) return;
  m_logScale = on;
  if (!m_logAxis) {
    m_logAxis = new QLogValueAxis(m_chart);
    m_logAxis->setLabelsFont(font());
    setDecadeRange(m_logAxis, 0.1, 1.0);  // decades, minor ticks and labels; the range follows the points
  }
  QAbstractAxis *from = on ? static_cast<QAbstractAxis *>(m_valueAxis) : m_logAxis;
  QAbstractAxis *to = on ? static_cast<QAbstractAxis *>(m_logAxis) : m_valueAxis;
  for (auto &[key, series] : m_series) series.line->detachAxis(from);
  for (auto &[key, marker] : m_markers) marker->detachAxis(from);
  m_chart->removeAxis(from);
  // removeAxis hands the axis back without a parent; the chart owns it again while it waits for
  // the next switch, or it outlives the chart.
  from->setParent(m_chart);
  m_chart->addAxis(to, Qt::AlignLeft);
  styleAxisGrid(to, palette());  // the theme may have changed while the axis was off the chart
  for (auto &[key, series] : m_series) {
    series.line->attachAxis(to);
    redraw(series);
  }
  for (auto &[key, marker] : m_markers) marker->attachAxis(to);
  updateAxes();
}

QList<QPointF> MetricChart::drawnPoints(const std::string &key) const {
  auto found = m_series.find(key);
  return found == m_series.end() ? QList<QPointF>() : found->second.line->points();
}

void MetricChart::clear() {
  for (auto &[key, series] : m_series) {
    series.line->clear();
    series.raw.clear();
    series.shown.clear();
    series.received.clear();
  }
  // A marker is one run's figure: it goes with the run's points.
  for (auto &[key, marker] : m_markers) {
    m_chart->removeSeries(marker);
    marker->deleteLater();
  }
  m_markers.clear();
  m_markerSources.clear();
  m_timelines.clear();  // the epochs and start went with the points
  m_hasBounds = false;
  m_zoomed = false;
  resetAxes();
  updateLegend();
}

void MetricChart::resetAxes() {
  // An empty chart still shows a plausible frame rather than a collapsed one.
  setNiceRangeLabelled(m_stepAxis, 0, m_xKind == XAxisKind::Epoch ? 10 : 100, 5, m_xKind == XAxisKind::Step);
  setNiceRange(m_valueAxis, 0, 1, 5);
}

int MetricChart::seriesPointCount(const std::string &key) const {
  auto found = m_series.find(key);
  return found == m_series.end() ? 0 : static_cast<int>(found->second.line->count());
}

int MetricChart::rawPointCount(const std::string &key) const {
  auto found = m_series.find(key);
  return found == m_series.end() ? 0 : static_cast<int>(found->second.raw.size());
}

void MetricChart::updateAxes() {
  if (!m_hasBounds) return;
  double fromX = m_zoomed ? m_viewFrom : m_minX;
  double toX = m_zoomed ? m_viewTo : (m_maxX > m_minX ? m_maxX : m_minX + 1);
  // A marker sits on the last (or first) step more often than not: the test set's figures come
  // after the final epoch. Room beside it, so it is drawn whole rather than cut by the frame.
  if (!m_zoomed) {
    const double room = 0.03 * (toX - fromX);
    for (const auto &[key, marker] : m_markers) {
      if (marker->count() == 0) continue;
      if (marker->at(0).x() >= toX) toX = marker->at(0).x() + room;
      if (marker->at(0).x() <= fromX) fromX = marker->at(0).x() - room;
    }
  }
  setNiceRangeLabelled(m_stepAxis, fromX, toX, 8, m_xKind == XAxisKind::Step);
  // The value range follows what is drawn: smoothing narrows it, the log axis drops values <= 0,
  // zoom keeps only the steps in view.
  bool any = false;
  double minY = 0, maxY = 0;
  for (const auto &[key, series] : m_series) {
    for (const QPointF &p : series.shown) {
      if (m_zoomed && (p.x() < m_viewFrom || p.x() > m_viewTo)) continue;
      if (!any) minY = maxY = p.y();
      minY = std::min(minY, p.y());
      maxY = std::max(maxY, p.y());
      any = true;
    }
  }
  for (const auto &[key, marker] : m_markers) {
    const QPointF p = marker->count() > 0 ? marker->at(0) : QPointF();
    if (marker->count() == 0 || (m_zoomed && (p.x() < m_viewFrom || p.x() > m_viewTo))) continue;
    if (m_logScale && p.y() <= 0) continue;
    if (!any) minY = maxY = p.y();
    minY = std::min(minY, p.y());
    maxY = std::max(maxY, p.y());
    any = true;
  }
  if (!any) return;
  if (m_logScale) {
    setDecadeRange(m_logAxis, minY, maxY);  // whole decades: a label at each, however narrow the values
    return;
  }
  double span = maxY - minY;
  if (span <= 0) span = std::max(std::abs(maxY) * 0.1, 1e-3);
  setNiceRange(m_valueAxis, minY - 0.05 * span, maxY + 0.05 * span, 6);
}

}  // namespace tw::ui
