#include "ui/design/graph_view.h"

#include "ui/design/model_document.h"
#include "ui/design/node_item.h"
#include "ui/design/op_palette.h"

#include <QDragEnterEvent>
#include <QGraphicsItem>
#include <QMimeData>
#include <QWheelEvent>

namespace tw::ui {

GraphView::GraphView(QGraphicsScene *scene, ModelDocument *document, QWidget *parent)
    : QGraphicsView(scene, parent), m_document(document) {
  setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
  setDragMode(QGraphicsView::RubberBandDrag);
  setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
  setAcceptDrops(true);
  setViewportUpdateMode(QGraphicsView::SmartViewportUpdate);
}

void GraphView::zoomBy(double factor) {
  const double next = zoom() * factor;
  if (next < 0.1 || next > 4.0) return;
  scale(factor, factor);
}

void GraphView::fitModel() {
  QRectF bounds;
  for (QGraphicsItem *item : scene()->items())
    if (item->type() == NodeItem::Type) bounds |= item->sceneBoundingRect();
  if (bounds.isEmpty()) return;
  fitInView(bounds.adjusted(-40, -40, 40, 40), Qt::KeepAspectRatio);
  if (zoom() > 1.5) {  // a lone node should not fill the screen
    const double back = 1.5 / zoom();
    scale(back, back);
  }
}

void GraphView::wheelEvent(QWheelEvent *event) {
  if (event->modifiers() & Qt::ControlModifier) {
    zoomBy(event->angleDelta().y() > 0 ? 1.15 : 1.0 / 1.15);
    event->accept();
    return;
  }
  QGraphicsView::wheelEvent(event);
}

void GraphView::dragEnterEvent(QDragEnterEvent *event) {
  if (event->mimeData()->hasFormat(OpPalette::kMimeType)) event->acceptProposedAction();
  else QGraphicsView::dragEnterEvent(event);
}

void GraphView::dragMoveEvent(QDragMoveEvent *event) {
  if (event->mimeData()->hasFormat(OpPalette::kMimeType)) event->acceptProposedAction();
  else QGraphicsView::dragMoveEvent(event);
}

void GraphView::dropEvent(QDropEvent *event) {
  if (dropOp(event->mimeData(), event->position().toPoint())) event->acceptProposedAction();
  else QGraphicsView::dropEvent(event);
}

bool GraphView::dropOp(const QMimeData *data, const QPoint &viewportPoint) {
  if (!data || !data->hasFormat(OpPalette::kMimeType)) return false;
  const QString op = QString::fromUtf8(data->data(OpPalette::kMimeType));
  const QPointF at = mapToScene(viewportPoint) - QPointF(NodeItem::kWidth / 2, NodeItem::kHeight / 2);
  if (op.startsWith(QLatin1String(OpPalette::kBlockPrefix))) {
    Q_EMIT blockDropped(op.mid(static_cast<int>(qstrlen(OpPalette::kBlockPrefix))), at);
    return true;
  }
  m_document->addNode(op, at);
  return true;
}

}  // namespace tw::ui
