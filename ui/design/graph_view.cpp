#include "ui/design/graph_view.h"

#include "ui/design/canvas_detail.h"
#include "ui/design/edge_item.h"
#include "ui/design/graph_overview.h"
#include "ui/design/model_document.h"
#include "ui/design/node_item.h"
#include "ui/design/op_palette.h"

#include <QDragEnterEvent>
#include <QGraphicsItem>
#include <QMimeData>
#include <QScrollBar>
#include <QTimer>
#include <QWheelEvent>

#include <algorithm>

namespace tw::ui {

GraphView::GraphView(QGraphicsScene *scene, ModelDocument *document, QWidget *parent)
    : QGraphicsView(scene, parent), m_document(document) {
  setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
  setDragMode(QGraphicsView::RubberBandDrag);
  setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
  setAcceptDrops(true);
  setViewportUpdateMode(QGraphicsView::SmartViewportUpdate);
  m_overview = new GraphOverview(this);
  // The overview follows whatever changes what the canvas shows: scrolling, zooming, resizing,
  // and the model growing or shrinking. Queued, so it reads the view after the change settles.
  auto refresh = [this] { QTimer::singleShot(0, m_overview, &GraphOverview::refresh); };
  connect(horizontalScrollBar(), &QScrollBar::valueChanged, this, refresh);
  connect(verticalScrollBar(), &QScrollBar::valueChanged, this, refresh);
  connect(horizontalScrollBar(), &QScrollBar::rangeChanged, this, refresh);
  connect(verticalScrollBar(), &QScrollBar::rangeChanged, this, refresh);
  connect(scene, &QGraphicsScene::sceneRectChanged, this, refresh);
}

QRectF GraphView::nodesBounds() const {
  QRectF bounds;
  for (QGraphicsItem *item : scene()->items())
    if (item->type() == NodeItem::Type) bounds |= item->sceneBoundingRect();
  return bounds;
}

double GraphView::legibleZoom() const { return fullLabelZoom(); }

double GraphView::opNameZoom() const {
  double zoom = 0;
  for (QGraphicsItem *item : scene()->items())
    if (item->type() == NodeItem::Type)
      zoom = std::max(zoom, kMinTextPixels / std::max(1, static_cast<NodeItem *>(item)->opNamePixels()));
  return zoom > 0 ? std::min(zoom, legibleZoom()) : legibleZoom();
}

void GraphView::zoomBy(double factor) {
  const double next = zoom() * factor;
  // Out far enough to see the whole of any model (boxes without text), in no further than 4x.
  const QRectF bounds = nodesBounds().adjusted(-40, -40, 40, 40);
  const double whole = bounds.isEmpty() ? 1.0
                                        : std::min(viewport()->width() / bounds.width(), viewport()->height() / bounds.height());
  if ((factor < 1 && next < std::min(0.05, whole * 0.8)) || next > 4.0) return;
  scale(factor, factor);
  m_overview->refresh();
}

void GraphView::fitModel() { fitAtLeast(opNameZoom()); }

void GraphView::showModel() {
  m_showPending = !isVisible();
  if (!m_showPending) showModelNow();
}

void GraphView::showModelNow() {
  m_showPending = false;
  fitAtLeast(legibleZoom());
}

void GraphView::fitAtLeast(double floor) {
  const QRectF bounds = nodesBounds();
  if (bounds.isEmpty()) return;
  fitInView(bounds.adjusted(-40, -40, 40, 40), Qt::KeepAspectRatio);
  if (zoom() > 1.5) {  // a lone node should not fill the screen
    const double back = 1.5 / zoom();
    scale(back, back);
  }
  if (zoom() < floor) {
    const double up = floor / zoom();
    scale(up, up);
    // Start where the data comes in: the top (or left) of the model, its middle across.
    const QRectF shown = mapToScene(viewport()->rect()).boundingRect();
    const bool down = m_document->flow() == LayoutFlow::TopToBottom;
    centerOn(down ? QPointF(bounds.center().x(), bounds.top() - 40 + shown.height() / 2)
                  : QPointF(bounds.left() - 40 + shown.width() / 2, bounds.center().y()));
  }
  m_overview->refresh();
}

void GraphView::placeOverview() {
  const QRect area = viewport()->geometry();
  const QSize size(std::min(220, area.width() / 3), std::min(150, area.height() / 3));
  m_overview->setGeometry(area.right() - size.width() - 10, area.bottom() - size.height() - 10, size.width(),
                          size.height());
}

void GraphView::resizeEvent(QResizeEvent *event) {
  QGraphicsView::resizeEvent(event);
  placeOverview();
  if (m_showPending && isVisible()) showModelNow();
  m_overview->refresh();
}

void GraphView::changeEvent(QEvent *event) {
  QGraphicsView::changeEvent(event);
  if (event->type() != QEvent::PaletteChange) return;
  // Nodes and frames read the palette as they paint; edges keep a pen, set here again.
  for (QGraphicsItem *item : scene()->items())
    if (item->type() == EdgeItem::Type) static_cast<EdgeItem *>(item)->applyPalette();
}

void GraphView::showEvent(QShowEvent *event) {
  QGraphicsView::showEvent(event);
  placeOverview();
  if (m_showPending) showModelNow();
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
