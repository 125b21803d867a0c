#pragma once
// The Compare page: the runs chosen on the Runs page side by side, in four tabs that share the
// metric chosen at the top (until the user chooses one, the metric the runs monitored:
// default_metric.h; a choice, once made, stays for every later comparison). Curves overlays the
// metric's curves (one colour per run, or a mean and min/max band per group of a parameter);
// Parallel coordinates and Scatter place each run at its parameters and its metric's final,
// lowest or highest value; Config lists the runs' parameters with every one that differs
// highlighted. A tab with nothing to show says what to do (empty_state.h). All reading happens
// off the UI thread.

#include <QStringList>
#include <QWidget>

#include <memory>
#include <set>
#include <string>
#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QTabWidget;
class QTableWidget;

namespace tw::ui {

class CompareLoader;
class ConfigDiffView;
class CurvesView;
class MetricChart;
class ParallelView;
class ScatterView;
struct CompareData;
struct Comparison;
struct MetricSummaries;

class ComparePage : public QWidget {
  Q_OBJECT

 public:
  explicit ComparePage(QWidget *parent = nullptr);
  ~ComparePage() override;

  void compareRuns(const QString &databasePath, const std::vector<int64_t> &runIds);
  // Shows runs already read (what compareRuns() does once the loader answers).
  void showData(const CompareData &data);

  QComboBox *metric() const { return m_metric; }
  QTabWidget *tabs() const { return m_tabs; }
  CurvesView *curves() const { return m_curves; }
  ParallelView *parallel() const { return m_parallel; }
  ScatterView *scatter() const { return m_scatter; }
  ConfigDiffView *config() const { return m_config; }
  const Comparison *comparison() const { return m_comparison.get(); }
  // Shortcuts into the tabs.
  MetricChart *chart() const;
  QTableWidget *configTable() const;
  QCheckBox *onlyDifferences() const;
  QStringList differingKeys() const;

 Q_SIGNALS:
  void loaded();
  // A metric's summaries, asked for by a tab, arrived and are drawn.
  void summariesShown(const QString &metric);

 private:
  void reload();
  void readSummaries(const QString &metric);
  void showSummaries(const MetricSummaries &summaries);

  CompareLoader *m_loader;
  QString m_databasePath;
  QString m_chosenMetric;  // the user's choice; empty: the runs' default (default_metric.h)
  std::vector<int64_t> m_runIds;
  std::unique_ptr<Comparison> m_comparison;
  std::set<std::string> m_summariesPending;
  QComboBox *m_metric;
  QLabel *m_summary;
  QTabWidget *m_tabs;
  CurvesView *m_curves;
  ParallelView *m_parallel;
  ScatterView *m_scatter;
  ConfigDiffView *m_config;
};

}  // namespace tw::ui
