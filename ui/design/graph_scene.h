#pragma once
// The canvas's contents, kept equal to the document: a NodeItem per node, an EdgeItem per input.
// It turns gestures into document edits: dragging from an output port onto a node connects them
// (replacing the edge into a one-input node that has one, or saying why not),
// moving nodes records one undoable move when the mouse is released, Delete removes the selection.

#include <QGraphicsScene>
#include <QHash>
#include <QStringList>

#include "ui/design/graph_layout.h"

class QGraphicsLineItem;

namespace tw::ui {

class EdgeItem;
class GroupFrame;
class ModelDocument;
class NodeItem;

class GraphScene : public QGraphicsScene {
  Q_OBJECT

 public:
  explicit GraphScene(ModelDocument *document, QObject *parent = nullptr);
  ~GraphScene() override;

  NodeItem *nodeItem(const QString &id) const { return m_nodes.value(id); }
  QList<EdgeItem *> edges() const { return m_edges; }
  EdgeItem *edge(const QString &from, const QString &to) const;
  QStringList selectedNodeIds() const;
  // The frame of a block instance ("dense" for dense.fc, dense.act); nullptr when none.
  GroupFrame *groupFrame(const QString &instance) const { return m_frames.value(instance); }
  void deleteSelection();
  void selectNode(const QString &id);
  // Ports and edges for the direction the model flows in (the document's layout direction).
  void setFlow(LayoutFlow flow);
  // The nodes' bounding box (empty when there are none).
  QRectF nodesBoundingRect() const;
  // A top-left corner near `preferred` where a new node touches no other.
  QPointF freeSpotNear(QPointF preferred) const;

 Q_SIGNALS:
  void currentNodeChanged(const QString &id);  // the one selected node; "" for none or several
  // What an edge dropped onto a node did when it was not simply added: the edge it replaced, or
  // why it was refused.
  void edgeDropSaid(const QString &text);

 protected:
  void mousePressEvent(QGraphicsSceneMouseEvent *event) override;
  void mouseMoveEvent(QGraphicsSceneMouseEvent *event) override;
  void mouseReleaseEvent(QGraphicsSceneMouseEvent *event) override;

 private:
  void sync();
  void clearEdges();
  void rebuildEdges();
  void syncFrames();
  void fitFrameOf(const QString &nodeId);
  NodeItem *nodeAt(const QPointF &scenePoint) const;
  // The scene is the nodes' extent plus a margin to drag into: it grows with the model.
  void fitSceneRect(bool shrink);

  ModelDocument *m_document;
  QHash<QString, NodeItem *> m_nodes;
  QList<EdgeItem *> m_edges;
  QHash<QString, GroupFrame *> m_frames;
  NodeItem *m_connectFrom = nullptr;
  QGraphicsLineItem *m_rubber = nullptr;
  bool m_syncing = false;
  LayoutFlow m_flow = LayoutFlow::TopToBottom;
};

}  // namespace tw::ui
