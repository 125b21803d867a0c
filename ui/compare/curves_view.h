#pragma once
// The Curves tab: the compared metric of every run overlaid, one colour per run; or, grouped by
// a parameter that differs between the runs, one mean curve and min/max band per group.
//
//   view->setComparison(&comparison);   // after each load; keeps the group by if still offered

#include <QWidget>

class QComboBox;
class QStackedWidget;

namespace tw::ui {

class BandChart;
class EmptyState;
class MetricChart;
struct Comparison;

class CurvesView : public QWidget {
  Q_OBJECT

 public:
  explicit CurvesView(QWidget *parent = nullptr);

  void setComparison(const Comparison *comparison);
  QComboBox *groupBy() const { return m_groupBy; }
  MetricChart *chart() const { return m_chart; }  // null before the first load
  BandChart *bandChart() const { return m_bands; }
  bool grouped() const;
  EmptyState *emptyState() const { return m_empty; }

 private:
  void showRuns();
  void showGroups();

  const Comparison *m_comparison = nullptr;
  QComboBox *m_groupBy;
  QStackedWidget *m_stack;
  MetricChart *m_chart = nullptr;
  BandChart *m_bands;
  EmptyState *m_empty;
};

}  // namespace tw::ui
