#pragma once
// One node on the canvas: its id, op, output shape and parameter count, an input port where data
// comes in and an output port where it leaves (top and bottom when the model flows down, left and
// right when it flows across). A node the validator complains about is drawn red and says why in
// its tooltip. A frozen node (`trainable: false`) is drawn muted and hatched with a "frozen" tag,
// one with another learning-rate factor tagged "lr ×0.1". How much of it is drawn depends on the
// zoom (canvas_detail.h).

#include "ui/design/canvas_detail.h"
#include "ui/design/graph_layout.h"

#include <QGraphicsObject>
#include <QString>

namespace tw::ui {

class NodeItem : public QGraphicsObject {
  Q_OBJECT

 public:
  // Wide enough for the longest op name and a shape beside a parameter count in the label's font.
  static constexpr double kWidth = 210.0;
  static constexpr double kHeight = 64.0;
  static constexpr double kPortRadius = 6.0;
  enum { Type = UserType + 1 };

  explicit NodeItem(const QString &id, QGraphicsItem *parent = nullptr);
  int type() const override { return Type; }

  QString id() const { return m_id; }
  void setId(const QString &id);
  // op, "[16, 28, 28]" (empty: unknown), parameter count, the validator's message ("" when fine)
  void setContent(const QString &op, const QString &shape, qint64 params, const QString &problem, bool output);
  // The node's fine-tuning keys (model_spec.h).
  void setFineTuning(bool trainable, double lrFactor);
  bool isFrozen() const { return !m_trainable; }
  double lrFactor() const { return m_lrFactor; }
  // The tag on its title row: "frozen", "lr ×0.1", or "" for a node trained at the run's rate.
  QString fineTuningTag() const;
  // What the node shows at a zoom (canvas_detail.h): its full label, its op name alone, or a box.
  NodeDetail detailAt(double scale) const { return tw::ui::detailAt(scale, m_opName); }
  // What its last paint drew. The overview paints the same item at its own zoom: read it right
  // after rendering the one view it is asked about.
  NodeDetail lastDrawn() const { return m_lastDrawn; }
  // The size its op name is drawn at when shown alone, in scene units.
  int opNamePixels() const { return m_opName.pixels; }
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
  void paintFullLabel(QPainter *painter) const;
  void updateToolTip();

  QString m_id, m_op, m_shape, m_problem;
  qint64 m_params = 0;
  bool m_output = false;
  bool m_trainable = true;
  double m_lrFactor = 1.0;
  LayoutFlow m_flow = LayoutFlow::TopToBottom;
  OpNameLayout m_opName;
  NodeDetail m_lastDrawn = NodeDetail::Box;
};

}  // namespace tw::ui
