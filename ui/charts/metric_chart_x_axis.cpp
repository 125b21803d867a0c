// MetricChart's x axis (step, epoch or time since the run's start: each received point placed
// again when the axis or a run's timeline changes) and its legend. The rest is metric_chart.cpp.
#include "ui/charts/metric_chart.h"

#include "ui/charts/chart_legend.h"
#include "ui/common/number_format.h"

#include <QLineSeries>
#include <QPen>
#include <QScatterSeries>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <limits>

namespace tw::ui {

void MetricChart::placeMarker(const std::string &key) {
  const MarkerSource &source = m_markerSources.at(key);
  const double x = xOfStep(source.run, source.step);
  if (!std::isfinite(x)) {
    m_markers.at(key)->clear();
    return;
  }
  const QPointF point(x, source.value);
  m_markers.at(key)->replace(QList<QPointF>{point});
  includeInBounds(point);
}

void MetricChart::setLegendVisible(bool visible) {
  m_legendForced = true;
  m_legendVisible = visible;
  updateLegend();
}

bool MetricChart::legendVisible() const { return m_legendVisible && !m_order.empty(); }

void MetricChart::updateLegend() {
  std::vector<ChartLegend::Entry> entries;
  for (const std::string &key : m_order) {
    const Series &series = m_series.at(key);
    QString name = series.line->name();
    // Points the axis cannot place (a run that recorded no epochs, or none yet) say so here.
    if (series.raw.isEmpty() && !series.received.empty())
      name = m_xKind == XAxisKind::Epoch ? tr("%1 (no epoch recorded yet)").arg(name) : tr("%1 (no times recorded)").arg(name);
    entries.push_back({series.line->pen().color(), series.line->pen().style(), name});
  }
  m_legend->setEntries(entries);
  m_legend->setVisible(legendVisible());
}

QString MetricChart::pointText(const QString &label, const QPointF &point) const {
  QString where;
  switch (m_xKind) {
    case XAxisKind::Step: where = tr("step %1").arg(formatNumber(point.x())); break;
    case XAxisKind::Epoch: where = tr("epoch %1").arg(formatNumber(point.x(), 3)); break;
    case XAxisKind::WallTime: where = tr("%1 s").arg(formatNumber(point.x() * m_timeUnit, 3)); break;
  }
  return tr("%1 · %2: %3").arg(label, where, formatNumber(point.y(), 5));
}

double MetricChart::minimumSpan() const {
  // Narrower than this there is nothing more to see: two steps, a fiftieth of an epoch, a second.
  switch (m_xKind) {
    case XAxisKind::Step: return 2.0;
    case XAxisKind::Epoch: return 0.02;
    case XAxisKind::WallTime: return 1.0 / m_timeUnit;
  }
  return 2.0;
}

double MetricChart::xOfStep(int64_t run, double step) const {
  if (m_xKind == XAxisKind::Step) return step;
  auto found = m_timelines.find(run);
  if (found == m_timelines.end()) return std::numeric_limits<double>::quiet_NaN();
  return m_xKind == XAxisKind::Epoch ? found->second.epochAt(step) : found->second.secondsAtStep(step) / m_timeUnit;
}

double MetricChart::xOf(int64_t run, const tracking::MetricPoint &point) const {
  if (m_xKind != XAxisKind::WallTime) return xOfStep(run, static_cast<double>(point.step));
  auto found = m_timelines.find(run);
  return found == m_timelines.end() ? std::numeric_limits<double>::quiet_NaN()
                                    : found->second.secondsAt(point.timeMs) / m_timeUnit;
}

void MetricChart::setXAxis(XAxisKind kind) {
  if (kind == m_xKind) return;
  m_xKind = kind;
  m_zoomed = false;  // a range of steps means nothing in epochs
  remap();
}

void MetricChart::setRunStart(int64_t run, int64_t startMs) {
  if (m_timelines[run].startMs() == startMs) return;  // a live run's snapshot comes with every poll
  m_timelines[run].setStartMs(startMs);
  if (m_xKind == XAxisKind::WallTime) remap();
}

void MetricChart::appendEpochs(int64_t run, const std::vector<tracking::MetricPoint> &points) {
  if (points.empty()) return;
  m_timelines[run].addEpochs(points);
  // The steps of the epoch that just ended were placed by the one before it; markers by the rows.
  if (m_xKind != XAxisKind::Step) remap();
}

void MetricChart::remap() {
  double longest = 0;  // seconds, for the time axis' unit
  if (m_xKind == XAxisKind::WallTime) {
    m_timeUnit = 1.0;
    for (const auto &[key, series] : m_series)
      for (const auto &p : series.received) {
        const double x = xOf(series.run, p);
        if (std::isfinite(x)) longest = std::max(longest, x);
      }
    m_timeUnit = timeUnitFor(longest);
  }
  m_stepAxis->setTitleText(xAxisTitle(m_xKind, m_timeUnit));
  m_hasBounds = false;
  for (auto &[key, series] : m_series) {
    series.raw.clear();
    for (const auto &p : series.received) {
      if (!std::isfinite(p.value)) continue;
      const double x = xOf(series.run, p);
      if (!std::isfinite(x)) continue;
      series.raw.append(QPointF(x, p.value));
      includeInBounds(series.raw.back());
    }
  }
  for (const auto &[key, marker] : m_markers) placeMarker(key);
  if (!m_hasBounds) resetAxes();
  redrawAll();
  updateLegend();
}

}  // namespace tw::ui
