#pragma once
// The one adapter over Qt Charts: metric series against the step, the epoch or the time since
// the run's start (setXAxis; run_timeline.h maps a run's steps), appended incrementally and
// decimated (min/max buckets) once a series grows past decimateAbove points. Everything else
// in Studio talks to this class, so the charting backend can change here alone. The legend is a
// ChartLegend under the plot, which wraps rather than cutting names on a narrow chart.
//
// Zoom and pan (drag, wheel, middle-drag; a double-click or Show All Steps on the context menu
// resets) work on the steps: the chart keeps every received point, so a zoomed range is
// decimated again from all the points in it, and a few thousand steps show at full resolution
// however long the run. The context menu also exports the chart (chart_export.h).
//
//   auto *chart = new MetricChart(tr("Loss"));
//   chart->addSeries("train/loss", tr("Training"));
//   chart->appendPoints("train/loss", points);   // points after the ones already shown
//   chart->setMarker("test/loss", tr("Test"), 1200, 0.41, color);   // a figure recorded once
//   chart->addSeries("val/loss@7", tr("run-7"), 7);   // a series of run 7, placed by run 7's timeline
//   chart->appendEpochs(7, epochPoints);              // run 7's "epoch" rows
//   chart->setXAxis(XAxisKind::Epoch);

#include "tracking/run_record.h"
#include "ui/charts/chart_export.h"
#include "ui/charts/run_timeline.h"

#include <QList>
#include <QPointF>
#include <QString>
#include <QWidget>

#include <map>
#include <string>
#include <vector>

class QChart;
class QColor;
class QLineSeries;
class QLogValueAxis;
class QScatterSeries;
class QValueAxis;

namespace tw::ui {

struct MetricChartOptions {
  int decimateAbove = 4000;    // points drawn per series at most
  QString valueLabelFormat = QStringLiteral("%.3g");
};

class MetricChart : public QWidget {
  Q_OBJECT

 public:
  explicit MetricChart(const QString &title, QWidget *parent = nullptr, MetricChartOptions options = {});
  ~MetricChart() override;

  // `run` names the timeline that places the series' points on an epoch or time axis (0: the
  // chart's one run).
  void addSeries(const std::string &key, const QString &label, int64_t run = 0);
  // A series' pen colour (alpha fades it), width and style instead of the palette's next colour.
  void setSeriesPen(const std::string &key, const QColor &color, double width, Qt::PenStyle style = Qt::SolidLine);
  QColor seriesPenColor(const std::string &key) const;
  QString seriesLabel(const std::string &key) const;  // as the legend names it
  // Removes every series and marker: the chart is about to show other runs.
  void removeAllSeries();
  // One figure recorded once (the test set's loss at the final step) drawn as a dot at
  // (step, value), left out of the legend; set again, it moves. clear() removes markers.
  void setMarker(const std::string &key, const QString &label, double step, double value, const QColor &color,
                 int64_t run = 0);
  bool hasMarker(const std::string &key) const { return m_markers.count(key) > 0; }
  // The marker's point on the current x axis, for tests; (0, 0) when there is none (or it has no
  // place on this axis yet).
  QPointF markerPoint(const std::string &key) const;
  // Points must come after those already appended to the series (the poller reads by step).
  void appendPoints(const std::string &key, const std::vector<tracking::MetricPoint> &points);

  // What the x axis counts. Against epochs, a run's points are placed by its `epoch` rows
  // (appendEpochs); against time, by their own time since the run's start (setRunStart).
  void setXAxis(XAxisKind kind);
  XAxisKind xAxis() const { return m_xKind; }
  void setRunStart(int64_t run, int64_t startMs);
  void appendEpochs(int64_t run, const std::vector<tracking::MetricPoint> &points);
  // Removes all points and keeps the series.
  void clear();
  bool hasSeries(const std::string &key) const { return m_series.count(key) > 0; }

  // 0 (none) ... 0.999: a debiased exponential moving average over all received points.
  void setSmoothing(double weight);
  double smoothing() const { return m_smoothing; }
  // A logarithmic value axis (losses over orders of magnitude); points <= 0 are left out.
  void setLogScale(bool on);
  bool logScale() const { return m_logScale; }
  // Zoom to a step range (full resolution inside it), by a factor around a step (< 1 zooms in),
  // pan by a number of steps, or back to everything. Zoomed, live points no longer move the range.
  void zoomToSteps(double from, double to);
  void zoomBy(double factor, double aroundStep);
  void pan(double steps);
  void resetZoom();
  bool isZoomed() const { return m_zoomed; }
  double visibleFrom() const;
  double visibleTo() const;
  // Legends of more than a dozen series are unreadable colour chips; they hide by themselves.
  void setLegendVisible(bool visible);
  bool legendVisible() const;
  class ChartLegend *legend() const { return m_legend; }

  // The values drawn for a series (smoothed, decimated), for tests.
  QList<QPointF> drawnPoints(const std::string &key) const;

  // For tests and the status bar: points drawn, and points received.
  int seriesPointCount(const std::string &key) const;
  int rawPointCount(const std::string &key) const;
  // The value axis while the log scale is on (null before it was first turned on), for tests.
  const QLogValueAxis *logAxis() const { return m_logScale ? m_logAxis : nullptr; }
  const QValueAxis *stepAxis() const { return m_stepAxis; }

 private:
  CsvMaker csvMaker() const;  // the context menu's "Export data as CSV..."
  struct Series {
    QLineSeries *line = nullptr;
    QList<QPointF> raw;    // the received points on the current x axis (those it can place)
    QList<QPointF> shown;  // raw, smoothed and filtered for the axis; before decimation
    std::vector<tracking::MetricPoint> received;  // as the database has them
    int64_t run = 0;
  };
  struct MarkerSource {
    double step = 0, value = 0;
    int64_t run = 0;
  };
  // A received point's x on the current axis; NaN when the axis cannot place it (yet).
  double xOf(int64_t run, const tracking::MetricPoint &point) const;
  double xOfStep(int64_t run, double step) const;
  // Every point and marker placed again, after the axis or a run's timeline changed.
  void remap();
  void placeMarker(const std::string &key);
  void updateLegend();
  QString pointText(const QString &label, const QPointF &point) const;
  double minimumSpan() const;
  void updateAxes();
  void resetAxes();
  void includeInBounds(const QPointF &p);
  void redraw(Series &series);
  QList<QPointF> prepared(const QList<QPointF> &raw) const;
  QList<QPointF> visible(const QList<QPointF> &shown) const;
  void redrawAll();

  MetricChartOptions m_options;
  QChart *m_chart = nullptr;
  class ZoomChartView *m_view = nullptr;
  QValueAxis *m_stepAxis = nullptr;
  QValueAxis *m_valueAxis = nullptr;
  QLogValueAxis *m_logAxis = nullptr;
  double m_smoothing = 0.0;
  bool m_logScale = false;
  std::map<std::string, Series> m_series;
  std::vector<std::string> m_order;
  std::map<std::string, QScatterSeries *> m_markers;
  bool m_hasBounds = false;
  bool m_zoomed = false;
  double m_viewFrom = 0, m_viewTo = 0;
  bool m_legendForced = false, m_legendVisible = true;
  class ChartLegend *m_legend = nullptr;
  XAxisKind m_xKind = XAxisKind::Step;
  double m_timeUnit = 1.0;  // seconds per unit of the time axis
  std::map<int64_t, RunTimeline> m_timelines;
  std::map<std::string, MarkerSource> m_markerSources;
  double m_minX = 0, m_maxX = 0, m_minY = 0, m_maxY = 0;
};

}  // namespace tw::ui
