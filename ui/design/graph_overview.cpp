#include "ui/design/graph_overview.h"

#include "ui/design/graph_view.h"
#include "ui/design/node_item.h"

#include <QGraphicsItem>
#include <QMouseEvent>
#include <QPainter>
#include <QPalette>

#include <algorithm>

namespace tw::ui {

GraphOverview::GraphOverview(GraphView *canvas) : QGraphicsView(canvas->scene(), canvas), m_canvas(canvas) {
  setObjectName(QStringLiteral("graphOverview"));
  setToolTip(tr("Overview: press or drag to move the canvas"));
  setInteractive(false);
  setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  setRenderHints(QPainter::Antialiasing);
  setFrameShape(QFrame::Box);
  setBackgroundBrush(palette().color(QPalette::AlternateBase));
  setCursor(Qt::PointingHandCursor);
  hide();
}

QRectF GraphOverview::shownArea() const { return m_canvas->mapToScene(m_canvas->viewport()->rect()).boundingRect(); }

void GraphOverview::refresh() {
  const QRectF nodes = m_canvas->nodesBounds();
  const bool larger = !nodes.isEmpty() && !shownArea().contains(nodes);
  setVisible(larger);
  if (!larger) return;
  fitInView(nodes.adjusted(-40, -40, 40, 40), Qt::KeepAspectRatio);
  viewport()->update();
}

void GraphOverview::drawForeground(QPainter *painter, const QRectF &) {
  // Each node at least three pixels each way: a 200-node model fitted into the corner makes its
  // nodes a fraction of a pixel tall, and drawn as they are they fade into the background.
  const double minimum = 3.0 / std::max(1e-6, transform().m11());
  for (QGraphicsItem *item : scene()->items()) {
    if (item->type() != NodeItem::Type) continue;
    const auto *node = static_cast<const NodeItem *>(item);
    QRectF box(node->pos(), QSizeF(NodeItem::kWidth, NodeItem::kHeight));
    const QPointF centre = box.center();
    box.setSize(box.size().expandedTo(QSizeF(minimum, minimum)));
    box.moveCenter(centre);
    painter->fillRect(box, node->hasProblem()   ? QColor(0xc6, 0x28, 0x28)
                           : node->isSelected() ? palette().color(QPalette::Highlight)
                                                : palette().color(QPalette::Dark));
  }
  QColor fill = palette().color(QPalette::Highlight);
  fill.setAlpha(40);
  QPen pen(palette().color(QPalette::Highlight), 2);
  pen.setCosmetic(true);
  painter->setPen(pen);
  painter->setBrush(fill);
  painter->drawRect(shownArea());
}

void GraphOverview::moveCanvasTo(const QPoint &point) {
  m_canvas->centerOn(mapToScene(point));
  refresh();
}

void GraphOverview::mousePressEvent(QMouseEvent *event) {
  if (event->button() == Qt::LeftButton) moveCanvasTo(event->position().toPoint());
  event->accept();
}

void GraphOverview::mouseMoveEvent(QMouseEvent *event) {
  if (event->buttons() & Qt::LeftButton) moveCanvasTo(event->position().toPoint());
  event->accept();
}

void GraphOverview::wheelEvent(QWheelEvent *event) { event->accept(); }

void GraphOverview::changeEvent(QEvent *event) {
  QGraphicsView::changeEvent(event);
  if (event->type() == QEvent::PaletteChange) setBackgroundBrush(palette().color(QPalette::AlternateBase));
}

}  // namespace tw::ui
