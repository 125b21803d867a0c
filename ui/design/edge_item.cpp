#include "ui/design/edge_item.h"

#include "ui/design/canvas_detail.h"
#include "ui/design/node_item.h"

#include <QApplication>
#include <QFont>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QPainter>
#include <QPalette>
#include <QStyleOptionGraphicsItem>
#include <QPen>

#include <algorithm>
#include <cmath>

namespace tw::ui {

namespace {

constexpr double kLaneMargin = 22.0;  // between a detour and the nodes it passes

// The shape beside an edge, left out where it would be drawn too small to read (a model fitted
// whole, the overview).
class EdgeLabel : public QGraphicsSimpleTextItem {
 public:
  using QGraphicsSimpleTextItem::QGraphicsSimpleTextItem;
  void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override {
    if (!readableAt(screenScale(painter->worldTransform()), font().pixelSize())) return;
    QGraphicsSimpleTextItem::paint(painter, option, widget);
  }
};

}  // namespace

EdgeItem::EdgeItem(NodeItem *from, NodeItem *to, int slot)
    : m_from(from), m_to(to), m_slot(slot), m_label(new EdgeLabel(this)) {
  setFlags(ItemIsSelectable);
  setZValue(0);
  applyPalette();
  m_label->setFont(canvasFont(kBodyPixels - 1, false));
  updatePath();
}

void EdgeItem::applyPalette() {
  setPen(QPen(QApplication::palette().color(QPalette::Mid), 1.6));
  m_label->setBrush(QApplication::palette().color(QPalette::PlaceholderText));
}

void EdgeItem::setLabel(const QString &shape) {
  m_labelText = shape;
  m_label->setText(shape);
  updatePath();
}

// Works in flow coordinates (along the flow, across it) so one routine serves both directions.
QPainterPath EdgeItem::routedPath() const {
  const bool down = m_from->flow() == LayoutFlow::TopToBottom;
  auto toFlow = [down](QPointF p) { return down ? QPointF(p.y(), p.x()) : p; };  // (along, across)
  auto toScene = [down](double along, double across) { return down ? QPointF(across, along) : QPointF(along, across); };
  const QPointF a = toFlow(m_from->outputPort()), b = toFlow(m_to->inputPort());
  const double span = b.x() - a.x();
  QPainterPath path(toScene(a.x(), a.y()));
  auto curve = [&](QPointF from, QPointF to) {
    const double bend = std::max(40.0, std::abs(to.x() - from.x()) / 2.0);
    path.cubicTo(toScene(from.x() + bend, from.y()), toScene(to.x() - bend, to.y()), toScene(to.x(), to.y()));
  };
  // Nodes strictly between the two ends along the flow, inside a band across it; the ends excluded.
  auto nodesIn = [&](double across0, double across1) {
    QList<QRectF> found;
    const QRectF band = QRectF(toScene(a.x() + 1, across0), toScene(b.x() - 1, across1)).normalized();
    for (QGraphicsItem *item : scene()->items(band, Qt::IntersectsItemBoundingRect)) {
      if (item->type() != NodeItem::Type || item == m_from || item == m_to) continue;
      const QRectF r = static_cast<NodeItem *>(item)->sceneBoundingRect();
      found.append(down ? QRectF(r.y(), r.x(), r.height(), r.width()) : r);  // x along, y across
    }
    return found;
  };
  const QList<QRectF> blocking = scene() && span > 0 ? nodesIn(std::min(a.y(), b.y()) - 1, std::max(a.y(), b.y()) + 1)
                                                     : QList<QRectF>();
  if (!blocking.isEmpty()) {
    // A lane beside what blocks the straight run, on the side nearer the two ends; when the lane
    // runs into a further column, the lane moves past that too.
    double left = blocking.front().top(), right = blocking.front().bottom();
    auto widen = [&](const QList<QRectF> &rects) {
      for (const QRectF &r : rects) {
        left = std::min(left, r.top());
        right = std::max(right, r.bottom());
      }
    };
    widen(blocking);
    const double ends = (a.y() + b.y()) / 2;
    double lane = 0;
    for (int attempt = 0; attempt < 6; ++attempt) {
      const bool goRight = std::abs(right + kLaneMargin - ends) <= std::abs(left - kLaneMargin - ends);
      lane = goRight ? right + kLaneMargin : left - kLaneMargin;
      const QList<QRectF> onLane = nodesIn(lane - kLaneMargin / 2, lane + kLaneMargin / 2);
      if (onLane.isEmpty()) break;
      widen(onLane);
    }
    const double turn = std::min(40.0, span / 4);
    const QPointF in(a.x() + turn, lane), out(b.x() - turn, lane);
    curve(a, in);
    path.lineTo(toScene(out.x(), out.y()));
    curve(out, b);
    return path;
  }
  curve(a, b);
  return path;
}

void EdgeItem::updatePath() {
  const QPainterPath path = routedPath();
  setPath(path);
  const QPointF middle = path.pointAtPercent(0.5);
  const QRectF text = m_label->boundingRect();
  // Beside the edge when it runs down, above it when it runs across.
  m_label->setPos(m_from->flow() == LayoutFlow::TopToBottom ? middle + QPointF(6, -text.height() / 2)
                                                             : middle - QPointF(text.width() / 2, text.height() + 2));
}

}  // namespace tw::ui
