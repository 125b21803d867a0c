#pragma once
// The Curves tab: the compared metric of every run overlaid, one colour per run; or, grouped by
// a parameter that differs between the runs, one mean curve and min/max band per group. The runs'
// curves are drawn against steps, epochs or the time since each run started (X axis).
//
//   view->setComparison(&comparison);   // after each load; keeps the group by if still offered

#include "ui/charts/run_timeline.h"

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
  // Step, Epoch or Wall time for the runs' curves (the group bands stay on steps).
  QComboBox *xAxisBox() const { return m_xAxis; }
  XAxisKind xAxisKind() const;
  MetricChart *chart() const { return m_chart; }  // null before the first load
  BandChart *bandChart() const { return m_bands; }
  bool grouped() const;
  EmptyState *emptyState() const { return m_empty; }

 private:
  void showRuns();
  void showGroups();

  const Comparison *m_comparison = nullptr;
  QComboBox *m_groupBy;
  QComboBox *m_xAxis;
  QStackedWidget *m_stack;
  MetricChart *m_chart = nullptr;
  BandChart *m_bands;
  EmptyState *m_empty;
};

}  // namespace tw::ui
