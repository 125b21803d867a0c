#pragma once
// The frame drawn behind the nodes of one block instance ("dense.fc", "dense.act"), titled with
// the instance name, so that a grouped block reads as one unit on the canvas.

#include <QGraphicsRectItem>
#include <QList>

namespace tw::ui {

class NodeItem;

class GroupFrame : public QGraphicsRectItem {
 public:
  enum { Type = UserType + 30 };
  explicit GroupFrame(const QString &instance);
  int type() const override { return Type; }

  QString instance() const { return m_instance; }
  // Fits the frame around the nodes' current positions.
  void fit(const QList<NodeItem *> &members);

  void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;

 private:
  QString m_instance;
};

}  // namespace tw::ui
