#include "ui/design/group_frame.h"

#include "ui/design/canvas_detail.h"
#include "ui/design/node_item.h"

#include <QPainter>
#include <QPalette>

namespace tw::ui {

namespace {
constexpr qreal kMargin = 14.0;
constexpr qreal kTitleHeight = 20.0;
}  // namespace

GroupFrame::GroupFrame(const QString &instance) : m_instance(instance) {
  setZValue(-10);  // behind nodes and edges
  setToolTip(QObject::tr("Block %1").arg(instance));
}

void GroupFrame::fit(const QList<NodeItem *> &members) {
  QRectF bounds;
  for (NodeItem *node : members) bounds |= node->sceneBoundingRect();
  setRect(bounds.adjusted(-kMargin, -kMargin - kTitleHeight, kMargin, kMargin));
}

void GroupFrame::paint(QPainter *painter, const QStyleOptionGraphicsItem *, QWidget *) {
  const QPalette palette;
  QColor fill = palette.color(QPalette::Highlight);
  fill.setAlpha(22);
  QColor border = palette.color(QPalette::Highlight);
  border.setAlpha(140);
  painter->setRenderHint(QPainter::Antialiasing);
  painter->setPen(QPen(border, 1.2, Qt::DashLine));
  painter->setBrush(fill);
  painter->drawRoundedRect(rect(), 10, 10);
  // The block's name by the nodes' rule: drawn where it can be read, never as a speck.
  if (!readableAt(screenScale(painter->worldTransform()), kTitlePixels)) return;
  painter->setPen(palette.color(QPalette::Text));
  painter->setFont(canvasFont(kTitlePixels, true));
  painter->drawText(rect().adjusted(kMargin, 4, -kMargin, 0), Qt::AlignLeft | Qt::AlignTop, m_instance);
}

}  // namespace tw::ui
