#pragma once
// An edge: a curve from a node's output port to another's input port, labelled with the shape of
// the tensor that flows along it. An edge that would pass through other nodes (a skip connection
// beside the chain it skips) detours through a lane beside them.

#include <QGraphicsPathItem>
#include <QPainterPath>
#include <QString>

class QGraphicsSimpleTextItem;

namespace tw::ui {

class NodeItem;

class EdgeItem : public QGraphicsPathItem {
 public:
  enum { Type = UserType + 2 };
  EdgeItem(NodeItem *from, NodeItem *to, int slot);
  int type() const override { return Type; }

  NodeItem *from() const { return m_from; }
  NodeItem *to() const { return m_to; }
  int slot() const { return m_slot; }
  void setLabel(const QString &shape);
  QString label() const { return m_labelText; }
  void updatePath();
  // Pen and label in the application palette's colours (again after the system theme changes).
  void applyPalette();

 private:
  QPainterPath routedPath() const;

  NodeItem *m_from, *m_to;
  int m_slot;
  QString m_labelText;
  QGraphicsSimpleTextItem *m_label;
};

}  // namespace tw::ui
