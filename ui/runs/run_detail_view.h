#pragma once
// One run in detail: its info panel and its loss and accuracy curves, the training diagnostics
// (learning rate, throughput, data wait, gradient norm), the per-layer norms, its evaluations
// (confusion matrix and per-class scores), the machine side, its parameters and artifacts. Fed by
// RunsPage with the selected run's snapshots and metric chunks; chunks of an earlier watch are
// ignored.
//
// With several runs selected, the Curves and Training tabs overlay the others' curves on the
// run in detail's, one colour per run in every chart (series_palette.h), the legend naming the
// runs. The test set's figures, recorded once at the end, are markers at their step. The X axis
// choice draws every chart against steps, epochs (the runs' `epoch` rows, watched with the
// curves) or the time since each run started.

#include "ui/workspace/poll_results.h"

#include <QStringList>
#include <QWidget>

#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QSlider;
class QStackedWidget;
class QTabWidget;

namespace tw::ui {

class ArtifactsPanel;
class EvaluationPanel;
class LayerNormsPanel;
class MetricChart;
class ParamsPanel;
class RunInfoPanel;
class SystemPanel;

class RunDetailView : public QWidget {
  Q_OBJECT

 public:
  explicit RunDetailView(QWidget *parent = nullptr);

  // The metric keys the charts draw, to be watched in the poller.
  static QStringList chartedKeys();

  // The workspace's tracking database, which the System and Evaluation tabs read.
  void setDatabasePath(const QString &path);

  // At most this many runs are overlaid: the palette's colours stay distinct and the legend
  // readable.
  static constexpr int kMaxOverlaidRuns = 6;

  // Shows a run with empty charts; metrics arrive with updates carrying watchToken.
  void showRun(const RunSnapshot &snapshot, quint64 watchToken) { showRuns(snapshot, {}, watchToken); }
  // The same, with the curves of `others` overlaid (the first kMaxOverlaidRuns - 1 of them); the
  // tabs other than Curves and Training keep to `snapshot`. Their updates carry watchToken too.
  void showRuns(const RunSnapshot &snapshot, const std::vector<RunSnapshot> &others, quint64 watchToken);
  void clearRun();
  // A newer snapshot of a run shown (status, end time, the test figures).
  void updateRun(const RunSnapshot &snapshot);
  void appendMetrics(const tw::ui::MetricsUpdate &update);

  int64_t runId() const { return m_runId; }
  // The runs whose curves are drawn, the run in detail first.
  std::vector<int64_t> chartedRunIds() const { return m_charted; }
  // The chart series (or marker) of a run's metric: the metric key itself for the run in detail,
  // "key@<run id>" for an overlaid run; for a test figure, the test key ("test/loss").
  std::string seriesKey(int64_t runId, const std::string &metricKey) const;
  MetricChart *lossChart() const { return m_lossChart; }
  MetricChart *accuracyChart() const { return m_accuracyChart; }
  MetricChart *lrChart() const { return m_lrChart; }
  MetricChart *throughputChart() const { return m_throughputChart; }
  MetricChart *dataWaitChart() const { return m_dataWaitChart; }
  QLabel *dataBoundHintLabel() const { return m_dataBoundHint; }
  MetricChart *gradNormChart() const { return m_gradNormChart; }
  EvaluationPanel *evaluationPanel() const { return m_evaluation; }
  QTabWidget *tabs() const { return m_tabs; }
  // Step, Epoch or Wall time: what every chart's x axis counts.
  QComboBox *xAxisBox() const { return m_xAxis; }
  SystemPanel *systemPanel() const { return m_system; }
  ArtifactsPanel *artifactsPanel() const { return m_artifacts; }
  ParamsPanel *paramsPanel() const { return m_params; }
  LayerNormsPanel *layerNormsPanel() const { return m_norms; }
  RunInfoPanel *infoPanel() const { return m_info; }

 private:
  QWidget *createCurvesTab();
  QWidget *createTrainingTab();
  // A run's series on every chart, and its test markers.
  void addRunSeries(size_t index, const RunSnapshot &snapshot);
  void showDataBoundHint(const RunSnapshot &snapshot);
  void updateMarkers(size_t index, const RunSnapshot &snapshot);

  // A curve every chart draws per run: the chart, the metric and its label.
  struct ChartSeries {
    MetricChart *chart;
    std::string key;
    QString label;
  };
  std::vector<ChartSeries> m_chartSeries;
  std::vector<int64_t> m_charted;  // the runs whose curves are drawn, the run in detail first
  QLabel *m_overlayNote = nullptr;
  QLabel *m_dataBoundHint = nullptr;

  QStackedWidget *m_stack = nullptr;
  QTabWidget *m_tabs = nullptr;
  RunInfoPanel *m_info = nullptr;
  MetricChart *m_lossChart = nullptr;
  MetricChart *m_accuracyChart = nullptr;
  MetricChart *m_lrChart = nullptr;
  MetricChart *m_throughputChart = nullptr;
  MetricChart *m_dataWaitChart = nullptr;
  MetricChart *m_gradNormChart = nullptr;
  std::vector<MetricChart *> m_charts;  // every chart a metric chunk may feed
  EvaluationPanel *m_evaluation = nullptr;
  QSlider *m_smoothing = nullptr;
  SystemPanel *m_system = nullptr;
  ArtifactsPanel *m_artifacts = nullptr;
  ParamsPanel *m_params = nullptr;
  LayerNormsPanel *m_norms = nullptr;
  int m_shownStatus = -1;  // the run's status when the artifacts were last read
  QCheckBox *m_logScale = nullptr;
  QComboBox *m_xAxis = nullptr;
  int64_t m_runId = 0;
  quint64 m_watchToken = 0;
};

}  // namespace tw::ui
