#pragma once
// The plots of one study, one tab each: optimisation history (every value and the best so far),
// every trial's learning curve of the objective (pruned and failed trials faded), parallel
// coordinates, a slice plot per parameter, a contour plot of a chosen pair, parameter importance
// and, for two objectives, the Pareto front. It draws what StudyAnalysis holds; it computes
// nothing itself.
//
//   plots->setAnalysis(update.analysis);
//   plots->appendCurves(update.curves);

#include "ui/sweeps/study_poller.h"

#include <QTabWidget>

#include <memory>

class QComboBox;
class QLabel;

namespace tw::ui {

class BarChart;
class ContourPlot;
class MetricChart;
class ParallelCoordinates;
class ScatterChart;

class StudyPlots : public QTabWidget {
  Q_OBJECT

 public:
  explicit StudyPlots(QWidget *parent = nullptr);

  void setAnalysis(std::shared_ptr<const StudyAnalysis> analysis);
  void appendCurves(const std::vector<TrialCurve> &curves);
  void clear();
  const StudyAnalysis *analysis() const { return m_analysis.get(); }

  ScatterChart *history() const { return m_history; }
  MetricChart *curves() const { return m_curves; }
  ParallelCoordinates *parallel() const { return m_parallel; }
  ScatterChart *slice() const { return m_slice; }
  QComboBox *sliceParam() const { return m_sliceParam; }
  ContourPlot *contour() const { return m_contour; }
  QComboBox *contourX() const { return m_contourX; }
  QComboBox *contourY() const { return m_contourY; }
  BarChart *importance() const { return m_importance; }
  ScatterChart *pareto() const { return m_pareto; }
  // Above the learning curves: the best trials' colours with their values, and the faded states.
  QLabel *curvesLegend() const { return m_curvesLegend; }
  // The trials the legend names, best first (at most kLegendTrials of them).
  std::vector<int> bestTrials() const;
  static constexpr size_t kLegendTrials = 5;
  // The importance chart's labels are elided (in the middle) to this share of its width, never
  // below kMinImportanceLabelPx; its tooltip names every parameter in full.
  static constexpr double kImportanceLabelShare = 0.3;
  static constexpr int kMinImportanceLabelPx = 90;

 protected:
  bool eventFilter(QObject *watched, QEvent *event) override;

 public:
  QWidget *paretoTab() const { return m_paretoTab; }

 Q_SIGNALS:
  // The contour pair changed: the analysis must be computed again for it.
  void contourPairChosen(const QString &x, const QString &y);

 private:
  void showHistory();
  void showCurvesLegend();
  void showParallel();
  void showSlice();
  void showContour();
  void showImportance();
  void showPareto();
  void styleCurve(int number);
  QString objectiveTitle(size_t index) const;

  std::shared_ptr<const StudyAnalysis> m_analysis;
  ScatterChart *m_history;
  MetricChart *m_curves;
  ParallelCoordinates *m_parallel;
  QComboBox *m_sliceParam;
  ScatterChart *m_slice;
  QComboBox *m_contourX, *m_contourY;
  ContourPlot *m_contour;
  QLabel *m_contourNote;
  BarChart *m_importance;
  QLabel *m_importanceNote;
  QWidget *m_paretoTab;
  ScatterChart *m_pareto;
  QLabel *m_curvesLegend;
};

}  // namespace tw::ui
