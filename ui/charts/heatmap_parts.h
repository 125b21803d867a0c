#pragma once
// What Studio's two heat maps (the confusion matrix, the layer x epoch grid) draw alike: the
// axis titles around the grid, the colour bar with its ticks, and a cell's tooltip. Each widget
// keeps its own geometry, colours and labels.

#include <QColor>
#include <QFont>
#include <QList>
#include <QPair>
#include <QRect>
#include <QString>

#include <functional>

class QEvent;
class QPainter;
class QWidget;

namespace tw::ui::heatmap {

// The column title centred under the grid from `titleTop`, and the row title on its side left of
// it, both bold.
void drawAxisTitles(QPainter &painter, const QWidget &widget, const QRect &grid, int titleTop,
                    const QString &columnTitle, const QString &rowTitle);

// The colour bar from `color(0)` at the bottom to `color(1)` at the top, framed, with a tick and
// label at each (position 0..1, label).
void drawColourBar(QPainter &painter, const QWidget &widget, const QRect &bar, const std::function<QColor(double)> &color,
                   const QList<QPair<double, QString>> &ticks);

// Answers a QEvent::ToolTip over a cell with `text(row, column)`; false for any other event.
// `cellAt` gives (column, row), (-1, -1) outside the grid.
bool showCellToolTip(QWidget *widget, QEvent *event, const std::function<QPoint(const QPoint &)> &cellAt,
                     const std::function<QRect(int, int)> &cellRect, const std::function<QString(int, int)> &text);

}  // namespace tw::ui::heatmap
