#pragma once
// Parallel coordinates: one vertical axis per dimension (a parameter, then a metric) and one
// polyline per item (a run) through its values, coloured by one axis' value on a viridis scale.
// Numbers sit on a linear or logarithmic axis from their lowest (bottom) to their highest
// value (top), a log axis with a tick at every power of ten; categories are evenly spaced.
// Hovering a line highlights it and names it.
// Dragging along an axis brushes a range on it: the lines inside every brush stay coloured and
// form the selection, the others fade (as in HiPlot, W&B and Optuna). A click on an axis
// without dragging clears its brush.
//
//   ParallelCoordinates::Axis lr{.title = "train.lr", .values = {1e-3, 1e-2}, .log = true};
//   ParallelCoordinates::Axis loss{.title = "val/loss", .values = {0.41, 0.38}};
//   plot->setData({lr, loss}, {"run-a", "run-b"}, 1);   // coloured by val/loss

#include "ui/charts/log_axis.h"

#include <QPixmap>
#include <QPointF>
#include <QStringList>
#include <QWidget>

#include <optional>
#include <utility>
#include <vector>

class QPainterPath;

namespace tw::ui {

class ParallelCoordinates : public QWidget {
  Q_OBJECT

 public:
  struct Axis {
    QString title;
    std::vector<double> values;  // one per line; NaN: missing; categorical: index into categories
    QStringList categories;      // non-empty: a categorical axis
    bool log = false;            // logarithmic; values <= 0 count as missing
  };

  explicit ParallelCoordinates(QWidget *parent = nullptr);

  // colorAxis: the axis whose values colour the lines; -1 for one colour. Clears the brushes.
  void setData(std::vector<Axis> axes, QStringList lineNames, int colorAxis);
  int axisCount() const { return static_cast<int>(m_axes.size()); }
  int lineCount() const { return static_cast<int>(m_names.size()); }
  const Axis &axis(int index) const { return m_axes.at(static_cast<size_t>(index)); }
  QString lineName(int line) const { return m_names.value(line); }

  // A brush keeps the lines whose value on `axis` is within [low, high] (category indices on a
  // categorical axis).
  void setBrush(int axis, double low, double high);
  void clearBrush(int axis);
  void clearBrushes();
  std::optional<std::pair<double, double>> brush(int axis) const;
  // The lines inside every brush, ascending; every line when nothing is brushed.
  std::vector<int> selectedLines() const;
  int hoveredLine() const { return m_hovered; }

  // Widget coordinates of an axis and of a value on it, for tests and tooltips.
  double axisX(int axis) const;
  double yOf(int axis, double value) const;
  // The ticks drawn on a log axis (every power of ten in its range labelled, 2..9 times it
  // between); none on another axis.
  std::vector<LogTick> logTicks(int axis) const;

  QSize sizeHint() const override { return {900, 480}; }
  QSize minimumSizeHint() const override { return {320, 220}; }

 Q_SIGNALS:
  void selectionChanged();
  void hoveredLineChanged(int line);

 protected:
  void paintEvent(QPaintEvent *event) override;
  void mousePressEvent(QMouseEvent *event) override;
  void mouseMoveEvent(QMouseEvent *event) override;
  void mouseReleaseEvent(QMouseEvent *event) override;
  void leaveEvent(QEvent *event) override;
  void resizeEvent(QResizeEvent *event) override;
  void changeEvent(QEvent *event) override;

 private:
  struct Range {
    double low = 0.0, high = 1.0;  // in axis units: log10 of the value on a log axis
  };
  QRectF plotRect() const;
  // 0 at the bottom of the axis, 1 at the top; NaN for a missing value.
  double position(int axis, double value) const;
  double valueAt(int axis, double y) const;
  int axisNear(const QPointF &point) const;
  int lineNear(const QPointF &point) const;
  bool inBrushes(int line) const;
  QColor lineColor(int line) const;
  void setHovered(int line);
  void invalidate();  // the lines changed: draw them again
  QPainterPath pathOf(int line) const;
  void paintLines(QPainter &painter) const;
  void paintAxes(QPainter &painter) const;
  void paintLegend(QPainter &painter) const;
  void paintHovered(QPainter &painter) const;

  QPixmap m_cache;  // background, lines, axes and legend; null when out of date
  std::vector<Axis> m_axes;
  std::vector<Range> m_ranges;
  QStringList m_names;
  int m_colorAxis = -1;
  std::vector<std::optional<std::pair<double, double>>> m_brushes;
  int m_hovered = -1;
  QPointF m_pointer;
  int m_dragAxis = -1;
  double m_dragFrom = 0.0;
};

}  // namespace tw::ui
