#pragma once
// The Scatter tab: any parameter (x) against any metric's final, lowest or highest value (y),
// one point per run. Minimum and maximum of a metric other than the compared one need its
// points: the view asks for them (summariesWanted) and draws once refresh() follows.
//
//   connect(view, &ScatterView::summariesWanted, page, &ComparePage::readSummaries);

#include <QWidget>

#include <string>

class QComboBox;
class QLabel;

namespace tw::ui {

class EmptyState;
class ScatterChart;
struct Comparison;

class ScatterView : public QWidget {
  Q_OBJECT

 public:
  explicit ScatterView(QWidget *parent = nullptr);

  void setComparison(const Comparison *comparison);
  // Draws again with what the comparison now holds (summaries that arrived).
  void refresh();
  QComboBox *xParam() const { return m_x; }
  QComboBox *yMetric() const { return m_y; }
  QComboBox *statistic() const { return m_statistic; }
  ScatterChart *chart() const { return m_chart; }
  EmptyState *emptyState() const { return m_empty; }

 Q_SIGNALS:
  void summariesWanted(const QString &metric);

 private:
  const Comparison *m_comparison = nullptr;
  QComboBox *m_x;
  QComboBox *m_y;
  QComboBox *m_statistic;
  QLabel *m_status;
  ScatterChart *m_chart;
  EmptyState *m_empty;
};

}  // namespace tw::ui
