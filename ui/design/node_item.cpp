#include "ui/design/node_item.h"

#include "ui/common/number_format.h"

#include <QApplication>
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
  if (op != m_opName.lines.join(QString())) m_opName = layOutOpName(op, QSizeF(kWidth - 16, kHeight - 8));
  updateToolTip();
  update();
}

void NodeItem::setFineTuning(bool trainable, double lrFactor) {
  if (trainable == m_trainable && lrFactor == m_lrFactor) return;
  m_trainable = trainable;
  m_lrFactor = lrFactor;
  updateToolTip();
  update();
}

QString NodeItem::fineTuningTag() const {
  if (!m_trainable) return tr("frozen");
  if (m_lrFactor != 1.0) return tr("lr ×%1").arg(formatNumber(m_lrFactor));
  return {};
}

void NodeItem::updateToolTip() {
  QString tip = QStringLiteral("<b>%1</b> (%2)").arg(m_id.toHtmlEscaped(), m_op.toHtmlEscaped());
  if (!m_shape.isEmpty()) tip += QStringLiteral("<br>") + tr("Output shape: %1").arg(m_shape);
  if (!m_trainable) tip += QStringLiteral("<br>") + tr("Frozen: training leaves its parameters as they are.");
  else if (m_lrFactor != 1.0)
    tip += QStringLiteral("<br>") + tr("Learning rate: the run's times %1.").arg(formatNumber(m_lrFactor));
  if (!m_problem.isEmpty())
    tip += QStringLiteral("<br><span style='color:#c62828'>%1</span>").arg(m_problem.toHtmlEscaped());
  setToolTip(tip);
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
  // Seen from far (the overview, a large model zoomed out) text and thin lines would be specks: a
  // solid box in the node's state colour says enough there.
  const NodeDetail detail = detailAt(screenScale(painter->worldTransform()));
  m_lastDrawn = detail;
  if (detail == NodeDetail::Box) {
    painter->fillRect(QRectF(0, 0, kWidth, kHeight), border);
    return;
  }
  painter->setRenderHint(QPainter::Antialiasing);
  painter->setPen(QPen(border, selected || !m_problem.isEmpty() ? 2.5 : 1.2));
  QColor fill = palette.color(QPalette::Base);
  if (!m_trainable) {
    // Muted towards Mid: darker on a light theme, lighter on a dark one, the text still on it.
    const QColor mid = palette.color(QPalette::Mid);
    fill = QColor::fromRgbF(0.7f * fill.redF() + 0.3f * mid.redF(), 0.7f * fill.greenF() + 0.3f * mid.greenF(),
                            0.7f * fill.blueF() + 0.3f * mid.blueF());
  }
  if (!m_problem.isEmpty()) fill = QColor(0xff, 0xeb, 0xee);
  painter->setBrush(fill);
  painter->drawRoundedRect(QRectF(0, 0, kWidth, kHeight), 8, 8);
  if (!m_trainable) {
    // Hatched as well, so that frozen reads without colour and from afar, where the tag is not
    // drawn. Pattern brushes are cosmetic: the lines stay a few pixels apart at every zoom.
    QColor hatch = palette.color(QPalette::Mid);
    hatch.setAlpha(120);
    painter->save();
    painter->setPen(Qt::NoPen);
    painter->setBrush(QBrush(hatch, Qt::BDiagPattern));
    painter->drawRoundedRect(QRectF(0, 0, kWidth, kHeight), 8, 8);
    painter->restore();
  }

  painter->setPen(palette.color(QPalette::Text));
  if (detail == NodeDetail::Full) {
    paintFullLabel(painter);
  } else {  // the op name alone, as large as the box allows: what the node is, readable from afar
    painter->setFont(canvasFont(m_opName.pixels, true));
    painter->drawText(QRectF(8, 4, kWidth - 16, kHeight - 8), Qt::AlignCenter, m_opName.lines.join(QLatin1Char('\n')));
  }

  painter->setPen(QPen(border, 1.2));
  painter->setBrush(palette.color(QPalette::Button));
  painter->drawEllipse(inputPortLocal(), kPortRadius, kPortRadius);
  painter->drawEllipse(outputPortLocal(), kPortRadius, kPortRadius);
}

void NodeItem::paintFullLabel(QPainter *painter) const {
  // Every line in the text colour: the secondary lines were grey, which at small sizes made them
  // the first to become unreadable.
  const double width = kWidth - 20;
  // The fine-tuning tag at the title's right end, as large as the body text so that it is drawn
  // wherever the label is; the id gives way to it.
  double titleWidth = width;
  if (const QString tag = fineTuningTag(); !tag.isEmpty()) {
    const QPalette palette = QApplication::palette();
    painter->save();
    painter->setFont(canvasFont(kBodyPixels, false));
    const double tagWidth = painter->fontMetrics().horizontalAdvance(tag) + 10;
    const QRectF pill(10 + width - tagWidth, 5, tagWidth, 17);
    // Window and WindowText: a pair every theme makes readable, on any of the fills above.
    painter->setPen(QPen(palette.color(QPalette::Mid), 1));
    painter->setBrush(palette.color(QPalette::Window));
    painter->drawRoundedRect(pill, 8.5, 8.5);
    painter->setPen(palette.color(QPalette::WindowText));
    painter->drawText(pill, Qt::AlignCenter, tag);
    painter->restore();
    titleWidth -= tagWidth + 6;
  }
  painter->setFont(canvasFont(kTitlePixels, true));
  const QString title = m_output ? m_id + QStringLiteral("  ⟶") : m_id;
  painter->drawText(QRectF(10, 4, titleWidth, 19), Qt::AlignLeft | Qt::AlignVCenter,
                    painter->fontMetrics().elidedText(title, Qt::ElideRight, int(titleWidth)));
  painter->setFont(canvasFont(kBodyPixels, false));
  painter->drawText(QRectF(10, 23, width, 18), Qt::AlignLeft | Qt::AlignVCenter,
                    painter->fontMetrics().elidedText(m_op, Qt::ElideRight, int(width)));
  // The parameter count on the right, the shape on the left in what room is left.
  const QString count = m_params > 0 ? tr("%1 params").arg(QLocale().toString(m_params)) : QString();
  const QRectF bottom(10, 41, width, 18);
  painter->drawText(bottom, Qt::AlignRight | Qt::AlignVCenter, count);
  const int countWidth = count.isEmpty() ? 0 : painter->fontMetrics().horizontalAdvance(count) + 8;
  painter->drawText(bottom, Qt::AlignLeft | Qt::AlignVCenter,
                    painter->fontMetrics().elidedText(m_shape, Qt::ElideRight, int(width) - countWidth));
}

QVariant NodeItem::itemChange(GraphicsItemChange change, const QVariant &value) {
  if (change == ItemPositionHasChanged) Q_EMIT moved();
  return QGraphicsObject::itemChange(change, value);
}

}  // namespace tw::ui
