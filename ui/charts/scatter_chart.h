#pragma once
// One point per item (a run) at (x, y), with the item's name on hover. x is a value axis, a
// logarithmic one, or evenly spaced categories (x = the category's index).
//
//   ScatterChart::Axis x;
//   x.title = "train.optimizer";
//   x.categories = {"adam", "sgd"};
//   chart->setPoints(x, {.title = "val/loss"}, {{0, 0.41, "run-a"}, {1, 0.38, "run-b"}});

#include <QList>
#include <QPointF>
#include <QString>
#include <QStringList>
#include <QWidget>

#include <vector>

class QAbstractAxis;
class QChart;
class QChartView;
class QLineSeries;
class QScatterSeries;

namespace tw::ui {

class ScatterChart : public QWidget {
  Q_OBJECT

 public:
  struct Axis {
    QString title;
    QStringList categories;  // non-empty: categorical, values are indices into it
    bool log = false;        // logarithmic (all values must be > 0)
  };
  struct Point {
    double x = 0.0, y = 0.0;
    QString label;
    QString detail;  // after the label in the tooltip (the point's values); empty: the label alone
  };

  explicit ScatterChart(QWidget *parent = nullptr);
  ~ScatterChart() override;

  // Replaces what is drawn; points with a non-finite coordinate are left out.
  void setPoints(const Axis &x, const Axis &y, std::vector<Point> points);
  // Drawn points and their labels, in the same order, for tests.
  QList<QPointF> drawnPoints() const;
  QStringList drawnLabels() const;
  const Axis &xAxis() const { return m_x; }
  // The axes as drawn (a QLogValueAxis for a log one), for tests.
  QAbstractAxis *drawnAxis(Qt::Orientation orientation) const;
  // The labels of the points at `point` (several runs can share one), as the hover shows them.
  QStringList labelsAt(const QPointF &point) const;
  // A line over the points on the same axes (a best-so-far curve, a Pareto front), after
  // setPoints; an empty list removes it. Its name shows in the legend.
  void setLine(const QList<QPointF> &points, const QString &name);
  QList<QPointF> drawnLine() const;

 private:
  QAbstractAxis *makeAxis(const Axis &axis, double min, double max) const;

  QChart *m_chart = nullptr;
  QChartView *m_view = nullptr;
  QScatterSeries *m_series = nullptr;
  QLineSeries *m_line = nullptr;
  Axis m_x, m_y;
  std::vector<Point> m_points;  // drawn ones only
};

}  // namespace tw::ui
