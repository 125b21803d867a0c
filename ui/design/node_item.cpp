#include "ui/design/node_item.h"

#include <QApplication>
#include <QFontInfo>
#include <QLocale>
#include <QPainter>
#include <QPalette>
#include <QStyleOptionGraphicsItem>

namespace tw::ui {

NodeItem::NodeItem(const QString &id, QGraphicsItem *parent) : QGraphicsObject(parent), m_id(id) {
  setFlags(ItemIsMovable | ItemIsSelectable | ItemSendsGeometryChanges);
  setAcceptHoverEvents(true);
  setZValue(1);
}

void NodeItem::setId(const QString &id) {
  m_id = id;
  update();
}

void NodeItem::setContent(const QString &op, const QString &shape, qint64 params, const QString &problem, bool output) {
  m_op = op;
  m_shape = shape;
  m_params = params;
  m_problem = problem;
  m_output = output;
  QString tip = QStringLiteral("<b>%1</b> (%2)").arg(m_id.toHtmlEscaped(), op.toHtmlEscaped());
  if (!shape.isEmpty()) tip += QStringLiteral("<br>") + tr("Output shape: %1").arg(shape);
  if (!problem.isEmpty()) tip += QStringLiteral("<br><span style='color:#c62828'>%1</span>").arg(problem.toHtmlEscaped());
  setToolTip(tip);
  update();
}

void NodeItem::setFlow(LayoutFlow flow) {
  if (flow == m_flow) return;
  prepareGeometryChange();
  m_flow = flow;
  update();
}

QPointF NodeItem::inputPortLocal() const {
  return m_flow == LayoutFlow::TopToBottom ? QPointF(kWidth / 2, 0) : QPointF(0, kHeight / 2);
}

QPointF NodeItem::outputPortLocal() const {
  return m_flow == LayoutFlow::TopToBottom ? QPointF(kWidth / 2, kHeight) : QPointF(kWidth, kHeight / 2);
}

bool NodeItem::isLegible(double levelOfDetail, const QFont &font) {
  return levelOfDetail * QFontInfo(font).pixelSize() >= kLegiblePixels;
}

bool NodeItem::isOnOutputPort(const QPointF &scenePoint) const {
  return QLineF(scenePoint, outputPort()).length() <= kPortRadius * 2.0;
}

QRectF NodeItem::boundingRect() const {
  return QRectF(-kPortRadius - 1, -kPortRadius - 1, kWidth + 2 * kPortRadius + 2, kHeight + 2 * kPortRadius + 2);
}

void NodeItem::paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *) {
  const QPalette palette = QApplication::palette();
  const bool selected = option->state & QStyle::State_Selected;
  const QColor border = !m_problem.isEmpty() ? QColor(0xc6, 0x28, 0x28)
                        : selected           ? palette.color(QPalette::Highlight)
                                             : palette.color(QPalette::Mid);
  // Seen from far (the overview, a large model fitted whole) text and thin lines would be specks:
  // a solid box in the node's state colour says enough there.
  const double detail = QStyleOptionGraphicsItem::levelOfDetailFromTransform(painter->worldTransform());
  if (detail < 0.3) {
    painter->fillRect(QRectF(0, 0, kWidth, kHeight), border);
    return;
  }
  painter->setRenderHint(QPainter::Antialiasing);
  painter->setPen(QPen(border, selected || !m_problem.isEmpty() ? 2.5 : 1.2));
  QColor fill = palette.color(QPalette::Base);
  if (!m_problem.isEmpty()) fill = QColor(0xff, 0xeb, 0xee);
  painter->setBrush(fill);
  painter->drawRoundedRect(QRectF(0, 0, kWidth, kHeight), 8, 8);
  if (!isLegible(detail, painter->font())) return;  // the box, without text too small to read

  painter->setPen(palette.color(QPalette::Text));
  QFont bold = painter->font();
  bold.setBold(true);
  painter->setFont(bold);
  const QString title = m_output ? m_id + QStringLiteral("  ⟶") : m_id;
  painter->drawText(QRectF(10, 4, kWidth - 20, 20), Qt::AlignLeft | Qt::AlignVCenter,
                    painter->fontMetrics().elidedText(title, Qt::ElideRight, int(kWidth - 20)));
  QFont normal = painter->font();
  normal.setBold(false);
  painter->setFont(normal);
  painter->setPen(palette.color(QPalette::PlaceholderText));
  painter->drawText(QRectF(10, 22, kWidth - 20, 18), Qt::AlignLeft | Qt::AlignVCenter, m_op);
  const QString count = m_params > 0 ? tr("%1 params").arg(QLocale().toString(m_params)) : QString();
  painter->drawText(QRectF(10, 40, kWidth - 20, 18), Qt::AlignRight | Qt::AlignVCenter, count);
  if (!m_shape.isEmpty()) painter->drawText(QRectF(10, 40, kWidth - 20, 18), Qt::AlignLeft | Qt::AlignVCenter, m_shape);

  painter->setPen(QPen(border, 1.2));
  painter->setBrush(palette.color(QPalette::Button));
  painter->drawEllipse(inputPortLocal(), kPortRadius, kPortRadius);
  painter->drawEllipse(outputPortLocal(), kPortRadius, kPortRadius);
}

QVariant NodeItem::itemChange(GraphicsItemChange change, const QVariant &value) {
  if (change == ItemPositionHasChanged) Q_EMIT moved();
  return QGraphicsObject::itemChange(change, value);
}

}  // namespace tw::ui
