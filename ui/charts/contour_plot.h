#pragma once
// A contour plot of an objective over two parameters: a grid of cells coloured by the value the
// analysis estimated there (viridis, with a colour bar), the trials drawn on top as dots.
// Positions are in unit coordinates (0 at the left or bottom, 1 at the right or top), as
// core/search's analyses report them, so log scales and categories are the axes' ticks' business.
// Plain QPainter, like the confusion heat map.
//
//   ContourPlot::Grid grid;
//   grid.x.title = "train.lr";
//   grid.x.ticks = {{0.0, "1e-4"}, {0.5, "0.005"}, {1.0, "0.3"}};
//   grid.size = 30; grid.values = ...;   // size x size, bottom row first
//   plot->setData(grid, {{0.42, 0.7}}, tr("val/accuracy"));

#include <QPointF>
#include <QStringList>
#include <QWidget>

#include <utility>
#include <vector>

namespace tw::ui {

class ContourPlot : public QWidget {
  Q_OBJECT

 public:
  struct Axis {
    QString title;
    std::vector<std::pair<double, QString>> ticks;  // (unit, label)
  };
  struct Grid {
    Axis x, y;
    int size = 0;                // cells along either axis
    std::vector<double> values;  // size * size, row-major from the bottom; NaN: no estimate
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

  Grid m_grid;
  std::vector<QPointF> m_trials;
  QString m_valueTitle;
  double m_low = 0.0, m_high = 1.0;  // of the finite values
};

}  // namespace tw::ui
