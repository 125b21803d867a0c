#pragma once
// The Parallel coordinates tab: one axis per parameter that differs between the runs and a last
// axis for the compared metric (its final, lowest or highest value), one line per run coloured
// by that value. Brushing axes selects runs; the tab says which.
//
//   view->setComparison(&comparison);

#include <QWidget>

class QComboBox;
class QLabel;
class QPushButton;

namespace tw::ui {

class EmptyState;
class ParallelCoordinates;
struct Comparison;

class ParallelView : public QWidget {
  Q_OBJECT

 public:
  explicit ParallelView(QWidget *parent = nullptr);

  void setComparison(const Comparison *comparison);
  ParallelCoordinates *plot() const { return m_plot; }
  QComboBox *statistic() const { return m_statistic; }
  QLabel *selectionLabel() const { return m_selection; }
  EmptyState *emptyState() const { return m_empty; }

 private:
  void rebuild();
  void showSelection();

  const Comparison *m_comparison = nullptr;
  QComboBox *m_statistic;
  QPushButton *m_clear;
  QLabel *m_selection;
  ParallelCoordinates *m_plot;
  EmptyState *m_empty;
};

}  // namespace tw::ui
