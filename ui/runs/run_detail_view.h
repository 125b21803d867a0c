#pragma once
// One run in detail: its info panel and its loss and accuracy curves. Fed by RunsPage with
// the selected run's snapshots and metric chunks; chunks of an earlier watch are ignored.

#include "ui/workspace/poll_results.h"

#include <QStringList>
#include <QWidget>

class QCheckBox;
class QSlider;
class QStackedWidget;

namespace tw::ui {

class MetricChart;
class RunInfoPanel;
class SystemPanel;

class RunDetailView : public QWidget {
  Q_OBJECT

 public:
  explicit RunDetailView(QWidget *parent = nullptr);

  // The metric keys the charts draw, to be watched in the poller.
  static QStringList chartedKeys();

  // Shows a run with empty charts; metrics arrive with updates carrying watchToken.
  void showRun(const RunSnapshot &snapshot, quint64 watchToken);
  void clearRun();
  // A newer snapshot of the run shown (status, end time).
  void updateRun(const RunSnapshot &snapshot);
  void appendMetrics(const tw::ui::MetricsUpdate &update);

  int64_t runId() const { return m_runId; }
  MetricChart *lossChart() const { return m_lossChart; }
  MetricChart *accuracyChart() const { return m_accuracyChart; }
  SystemPanel *systemPanel() const { return m_system; }
  RunInfoPanel *infoPanel() const { return m_info; }

 private:
  QStackedWidget *m_stack = nullptr;
  RunInfoPanel *m_info = nullptr;
  MetricChart *m_lossChart = nullptr;
  MetricChart *m_accuracyChart = nullptr;
  QSlider *m_smoothing = nullptr;
  SystemPanel *m_system = nullptr;
  QCheckBox *m_logScale = nullptr;
  int64_t m_runId = 0;
  quint64 m_watchToken = 0;
};

}  // namespace tw::ui
