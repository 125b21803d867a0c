#pragma once
// One run in detail: its info panel and its loss and accuracy curves, the training diagnostics
// (learning rate, throughput, data wait, gradient norm), its evaluations (confusion matrix and
// per-class scores) and the machine side. Fed by RunsPage with the selected run's snapshots and
// metric chunks; chunks of an earlier watch are ignored.

#include "ui/workspace/poll_results.h"

#include <QStringList>
#include <QWidget>

#include <vector>

class QCheckBox;
class QSlider;
class QStackedWidget;
class QTabWidget;

namespace tw::ui {

class ArtifactsPanel;
class EvaluationPanel;
class MetricChart;
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

  // Shows a run with empty charts; metrics arrive with updates carrying watchToken.
  void showRun(const RunSnapshot &snapshot, quint64 watchToken);
  void clearRun();
  // A newer snapshot of the run shown (status, end time).
  void updateRun(const RunSnapshot &snapshot);
  void appendMetrics(const tw::ui::MetricsUpdate &update);

  int64_t runId() const { return m_runId; }
  MetricChart *lossChart() const { return m_lossChart; }
  MetricChart *accuracyChart() const { return m_accuracyChart; }
  MetricChart *lrChart() const { return m_lrChart; }
  MetricChart *throughputChart() const { return m_throughputChart; }
  MetricChart *dataWaitChart() const { return m_dataWaitChart; }
  MetricChart *gradNormChart() const { return m_gradNormChart; }
  EvaluationPanel *evaluationPanel() const { return m_evaluation; }
  QTabWidget *tabs() const { return m_tabs; }
  SystemPanel *systemPanel() const { return m_system; }
  ArtifactsPanel *artifactsPanel() const { return m_artifacts; }
  RunInfoPanel *infoPanel() const { return m_info; }

 private:
  QWidget *createCurvesTab();
  QWidget *createTrainingTab();

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
  int m_shownStatus = -1;  // the run's status when the artifacts were last read
  QCheckBox *m_logScale = nullptr;
  int64_t m_runId = 0;
  quint64 m_watchToken = 0;
};

}  // namespace tw::ui
