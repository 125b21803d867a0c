#pragma once
// A confusion matrix painted as a heat map: rows are the true classes, columns the predicted
// ones, class names on both axes, the count (or the row's share) in each cell, a colour bar,
// and a tooltip per cell. Plain QPainter: an N x N grid needs no chart library.
//
//   auto *map = new ConfusionHeatmap;
//   map->setMatrix(matrix);
//   map->setRowNormalised(true);   // each row as shares of its true class

#include "ui/charts/confusion_matrix.h"

#include <QWidget>

namespace tw::ui {

class ConfusionHeatmap : public QWidget {
  Q_OBJECT

 public:
  explicit ConfusionHeatmap(QWidget *parent = nullptr);

  void setMatrix(const ConfusionMatrix &matrix);
  void clear();
  const ConfusionMatrix &matrix() const { return m_matrix; }
  int classCount() const { return m_matrix.size(); }

  void setRowNormalised(bool on);
  bool rowNormalised() const { return m_rowNormalised; }

  // What a cell says: its count, or its share of the row as a percentage.
  QString cellText(int truth, int predicted) const;
  // Where a cell is drawn, and which cell (x = predicted, y = truth) is under a point; (-1, -1)
  // outside the grid. For the tooltip and for tests.
  QRect cellRect(int truth, int predicted) const;
  QPoint cellAt(const QPoint &position) const;

  QSize sizeHint() const override { return {520, 480}; }
  QSize minimumSizeHint() const override { return {240, 220}; }

 protected:
  void paintEvent(QPaintEvent *event) override;
  bool event(QEvent *event) override;

 private:
  struct Geometry {
    QRect grid;
    int cell = 0;
    int labelWidth = 0;  // row names left of the grid, column names below it
    QRect bar;           // the colour scale
  };
  Geometry geometry() const;
  double value(int truth, int predicted) const;  // count or row share
  double maxValue() const;

  ConfusionMatrix m_matrix;
  bool m_rowNormalised = false;
};

}  // namespace tw::ui
