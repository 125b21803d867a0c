#pragma once
// A contour plot of an objective over two parameters: a grid of cells coloured by the value the
// analysis estimated there (viridis, with a colour bar), the trials drawn on top as dots. Axes
// run from low (left, bottom) to high and may be logarithmic; categorical axes space their
// choices evenly. Plain QPainter, like the confusion heat map.
//
//   ContourPlot::Grid grid;
//   grid.x = {.title = "train.lr", .low = 1e-4, .high = 0.3, .log = true};
//   grid.y = {.title = "data.batch_size", .low = 16, .high = 256};
//   grid.columns = 20; grid.rows = 20; grid.values = ...;   // rows x columns, bottom row first
//   plot->setData(grid, {{0.01, 64}}, tr("val/accuracy"));

#include <QPointF>
#include <QStringList>
#include <QWidget>

#include <vector>

namespace tw::ui {

class ContourPlot : public QWidget {
  Q_OBJECT

 public:
  struct Axis {
    QString title;
    double low = 0.0, high = 1.0;  // numbers: the range; categorical: 0 .. n-1
    bool log = false;
    QStringList categories;
  };
  struct Grid {
    Axis x, y;
    int columns = 0, rows = 0;
    std::vector<double> values;  // rows * columns, row-major from the bottom; NaN: no estimate
  };

  explicit ContourPlot(QWidget *parent = nullptr);

  void setData(Grid grid, std::vector<QPointF> trials, const QString &valueTitle);
  void clear();
  const Grid &grid() const { return m_grid; }
  int trialCount() const { return static_cast<int>(m_trials.size()); }

  QSize sizeHint() const override { return {560, 460}; }
  QSize minimumSizeHint() const override { return {260, 220}; }

 protected:
  void paintEvent(QPaintEvent *event) override;

 private:
  QRectF plotRect() const;
  double fraction(const Axis &axis, double value) const;  // 0 .. 1 along the axis

  Grid m_grid;
  std::vector<QPointF> m_trials;
  QString m_valueTitle;
  double m_low = 0.0, m_high = 1.0;  // of the finite values
};

}  // namespace tw::ui
