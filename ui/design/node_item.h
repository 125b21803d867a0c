#pragma once
// One node on the canvas: its id, op, output shape and parameter count, an input port where data
// comes in and an output port where it leaves (top and bottom when the model flows down, left and
// right when it flows across). A node the validator complains about is drawn red and says why in
// its tooltip.

#include "ui/design/graph_layout.h"

#include <QFont>
#include <QGraphicsObject>
#include <QString>

namespace tw::ui {

class NodeItem : public QGraphicsObject {
  Q_OBJECT

 public:
  static constexpr double kWidth = 190.0;
  static constexpr double kHeight = 64.0;
  static constexpr double kPortRadius = 6.0;
  enum { Type = UserType + 1 };
  // Canvas text smaller than this on screen is not drawn: the box and its colour stand for it.
  static constexpr double kLegiblePixels = 6.5;
  // Whether text in `font` is legible at a view's level of detail (its scale).
  static bool isLegible(double levelOfDetail, const QFont &font);

  explicit NodeItem(const QString &id, QGraphicsItem *parent = nullptr);
  int type() const override { return Type; }

  QString id() const { return m_id; }
  void setId(const QString &id);
  // op, "[16, 28, 28]" (empty: unknown), parameter count, the validator's message ("" when fine)
  void setContent(const QString &op, const QString &shape, qint64 params, const QString &problem, bool output);
  bool hasProblem() const { return !m_problem.isEmpty(); }
  QString problem() const { return m_problem; }

  void setFlow(LayoutFlow flow);
  LayoutFlow flow() const { return m_flow; }
  QPointF inputPort() const { return mapToScene(inputPortLocal()); }
  QPointF outputPort() const { return mapToScene(outputPortLocal()); }
  // Whether a scene point is on the output port (where dragging starts a connection).
  bool isOnOutputPort(const QPointF &scenePoint) const;

  QRectF boundingRect() const override;
  void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;

 Q_SIGNALS:
  void moved();

 protected:
  QVariant itemChange(GraphicsItemChange change, const QVariant &value) override;

 private:
  QPointF inputPortLocal() const;
  QPointF outputPortLocal() const;

  QString m_id, m_op, m_shape, m_problem;
  qint64 m_params = 0;
  bool m_output = false;
  LayoutFlow m_flow = LayoutFlow::TopToBottom;
};

}  // namespace tw::ui
