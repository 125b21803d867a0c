#pragma once
// The Compare page: the runs chosen on the Runs page side by side, as the curves of one metric
// overlaid (one colour per run) and a table of their configurations where every parameter that
// differs between them is highlighted, optionally alone.

#include <QWidget>

#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QTableWidget;
class QVBoxLayout;

namespace tw::ui {

class CompareLoader;
class MetricChart;
struct CompareData;

class ComparePage : public QWidget {
  Q_OBJECT

 public:
  explicit ComparePage(QWidget *parent = nullptr);

  void compareRuns(const QString &databasePath, const std::vector<int64_t> &runIds);
  MetricChart *chart() const { return m_chart; }
  QTableWidget *configTable() const { return m_table; }
  QCheckBox *onlyDifferences() const { return m_onlyDifferences; }
  QComboBox *metric() const { return m_metric; }
  // Rows of the config table whose values differ between the runs.
  QStringList differingKeys() const;

 Q_SIGNALS:
  void loaded();

 private:
  void reload();
  void showData(const CompareData &data);
  void applyFilter();

  CompareLoader *m_loader;
  QString m_databasePath;
  std::vector<int64_t> m_runIds;
  QComboBox *m_metric;
  QCheckBox *m_onlyDifferences;
  QLabel *m_summary;
  QVBoxLayout *m_chartBox;
  MetricChart *m_chart = nullptr;
  QTableWidget *m_table;
};

}  // namespace tw::ui
