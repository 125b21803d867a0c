#include "ui/charts/heatmap_parts.h"

#include <QEvent>
#include <QHelpEvent>
#include <QLinearGradient>
#include <QPainter>
#include <QToolTip>
#include <QWidget>

#include <cmath>

namespace tw::ui::heatmap {

namespace {
constexpr int kGap = 6;
constexpr int kGradientStops = 8;
}  // namespace

void drawAxisTitles(QPainter &painter, const QWidget &widget, const QRect &grid, int titleTop,
                    const QString &columnTitle, const QString &rowTitle) {
  const int lineHeight = widget.fontMetrics().height();
  QFont bold = widget.font();
  bold.setBold(true);
  painter.setFont(bold);
  painter.drawText(QRect(grid.left(), titleTop, grid.width(), lineHeight), Qt::AlignCenter, columnTitle);
  painter.save();
  painter.translate(0, grid.center().y());
  painter.rotate(-90);
  painter.drawText(QRect(-grid.height() / 2, 0, grid.height(), lineHeight), Qt::AlignCenter, rowTitle);
  painter.restore();
  painter.setFont(widget.font());
}

void drawColourBar(QPainter &painter, const QWidget &widget, const QRect &bar, const std::function<QColor(double)> &color,
                   const QList<QPair<double, QString>> &ticks) {
  QLinearGradient gradient(bar.bottomLeft(), bar.topLeft());
  for (int i = 0; i <= kGradientStops; ++i)
    gradient.setColorAt(static_cast<double>(i) / kGradientStops, color(static_cast<double>(i) / kGradientStops));
  painter.fillRect(bar, gradient);
  painter.setPen(widget.palette().color(QPalette::Mid));
  painter.drawRect(bar.adjusted(0, 0, -1, -1));
  painter.setPen(widget.palette().color(QPalette::WindowText));
  const int lineHeight = widget.fontMetrics().height();
  for (const auto &[position, label] : ticks) {
    const int y = bar.bottom() - static_cast<int>(std::lround(position * bar.height()));
    painter.drawLine(bar.right() + 1, y, bar.right() + 4, y);
    painter.drawText(QRect(bar.right() + kGap, y - lineHeight / 2, widget.width() - bar.right(), lineHeight),
                     Qt::AlignLeft | Qt::AlignVCenter, label);
  }
}

bool showCellToolTip(QWidget *widget, QEvent *event, const std::function<QPoint(const QPoint &)> &cellAt,
                     const std::function<QRect(int, int)> &cellRect, const std::function<QString(int, int)> &text) {
  if (event->type() != QEvent::ToolTip) return false;
  auto *help = static_cast<QHelpEvent *>(event);
  const QPoint cell = cellAt(help->pos());
  if (cell.x() < 0) {
    QToolTip::hideText();
    event->ignore();
    return true;
  }
  QToolTip::showText(help->globalPos(), text(cell.y(), cell.x()), widget, cellRect(cell.y(), cell.x()));
  return true;
}

}  // namespace tw::ui::heatmap
