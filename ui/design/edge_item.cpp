#include "ui/design/edge_item.h"

#include "ui/design/node_item.h"

#include <QApplication>
#include <QFont>
#include <QGraphicsSimpleTextItem>
#include <QPainterPath>
#include <QPalette>
#include <QPen>

namespace tw::ui {

EdgeItem::EdgeItem(NodeItem *from, NodeItem *to, int slot)
    : m_from(from), m_to(to), m_slot(slot), m_label(new QGraphicsSimpleTextItem(this)) {
  setFlags(ItemIsSelectable);
  setZValue(0);
  setPen(QPen(QApplication::palette().color(QPalette::Mid), 1.6));
  m_label->setBrush(QApplication::palette().color(QPalette::PlaceholderText));
  QFont font = m_label->font();
  font.setPointSizeF(font.pointSizeF() * 0.85);
  m_label->setFont(font);
  updatePath();
}

void EdgeItem::setLabel(const QString &shape) {
  m_labelText = shape;
  m_label->setText(shape);
  updatePath();
}

void EdgeItem::updatePath() {
  const QPointF a = m_from->outputPort(), b = m_to->inputPort();
  const double bend = std::max(40.0, std::abs(b.x() - a.x()) / 2.0);
  QPainterPath path(a);
  path.cubicTo(a + QPointF(bend, 0), b - QPointF(bend, 0), b);
  setPath(path);
  const QPointF middle = path.pointAtPercent(0.5);
  m_label->setPos(middle - QPointF(m_label->boundingRect().width() / 2, m_label->boundingRect().height() + 2));
}

}  // namespace tw::ui
