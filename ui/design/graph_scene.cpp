#include "ui/design/graph_scene.h"

#include "core/spec/shape.h"
#include "ui/design/edge_item.h"
#include "ui/design/group_frame.h"
#include "ui/design/model_document.h"
#include "ui/design/node_item.h"

#include <QGraphicsLineItem>
#include <QGraphicsSceneMouseEvent>
#include <QPen>

namespace tw::ui {

GraphScene::GraphScene(ModelDocument *document, QObject *parent) : QGraphicsScene(parent), m_document(document) {
  m_flow = document->flow();
  connect(document, &ModelDocument::changed, this, &GraphScene::sync);
  connect(this, &QGraphicsScene::selectionChanged, this, [this] {
    if (m_syncing) return;
    const QStringList ids = selectedNodeIds();
    Q_EMIT currentNodeChanged(ids.size() == 1 ? ids.front() : QString());
  });
  sync();
}

GraphScene::~GraphScene() {
  // Deleting the items changes the selection; nobody may hear of it from a half-destroyed scene
  // (the document it would consult may already be gone).
  blockSignals(true);
  clear();
}

EdgeItem *GraphScene::edge(const QString &from, const QString &to) const {
  for (EdgeItem *e : m_edges)
    if (e->from()->id() == from && e->to()->id() == to) return e;
  return nullptr;
}

QStringList GraphScene::selectedNodeIds() const {
  QStringList ids;
  for (QGraphicsItem *item : selectedItems())
    if (item->type() == NodeItem::Type) ids << static_cast<NodeItem *>(item)->id();
  return ids;
}

void GraphScene::selectNode(const QString &id) {
  clearSelection();
  if (NodeItem *item = m_nodes.value(id)) item->setSelected(true);
}

void GraphScene::deleteSelection() {
  const QStringList nodes = selectedNodeIds();
  QList<QPair<QString, QString>> cut;
  for (QGraphicsItem *item : selectedItems()) {
    if (item->type() != EdgeItem::Type) continue;
    auto *e = static_cast<EdgeItem *>(item);
    if (!nodes.contains(e->from()->id()) && !nodes.contains(e->to()->id())) cut.append({e->from()->id(), e->to()->id()});
  }
  // One undo step per edit keeps each command simple; a multi-edit delete is rare enough.
  for (const auto &[from, to] : cut) m_document->disconnectNodes(from, to);
  if (!nodes.isEmpty()) m_document->removeNodes(nodes);
}

void GraphScene::sync() {
  m_syncing = true;
  clearEdges();  // they point at nodes that may go; rebuilt below
  const auto &spec = m_document->spec();
  const auto &analysis = m_document->analysis();
  QSet<QString> present;
  for (const auto &node : spec.nodes) {
    const QString id = QString::fromStdString(node.id);
    present.insert(id);
    NodeItem *item = m_nodes.value(id);
    if (!item) {
      item = new NodeItem(id);
      addItem(item);
      m_nodes.insert(id, item);
      item->setFlow(m_flow);
      connect(item, &NodeItem::moved, this, [this, item] {
        for (EdgeItem *e : m_edges)
          if (e->from() == item || e->to() == item) e->updatePath();
        fitFrameOf(item->id());
        if (!m_syncing) fitSceneRect(false);
      });
    }
    const QPointF at = m_document->position(id);
    if (item->pos() != at) item->setPos(at);
    const spec::NodeInfo *info = analysis.find(node.id);
    const QString shape = info && !info->outputShape.empty() ? QString::fromStdString(spec::formatShape(info->outputShape)) : QString();
    item->setContent(QString::fromStdString(node.op), shape, info ? info->paramCount : 0, m_document->problemOf(id),
                     node.id == spec.output);
    item->setFineTuning(node.trainable, node.lrFactor);
  }
  for (auto it = m_nodes.begin(); it != m_nodes.end();) {
    if (present.contains(it.key())) {
      ++it;
      continue;
    }
    removeItem(it.value());
    delete it.value();
    it = m_nodes.erase(it);
  }
  rebuildEdges();
  syncFrames();
  fitSceneRect(true);
  m_syncing = false;
  const QStringList ids = selectedNodeIds();
  Q_EMIT currentNodeChanged(ids.size() == 1 ? ids.front() : QString());
}

void GraphScene::setFlow(LayoutFlow flow) {
  m_flow = flow;
  for (NodeItem *item : std::as_const(m_nodes)) item->setFlow(flow);
  for (EdgeItem *e : std::as_const(m_edges)) e->updatePath();
}

QRectF GraphScene::nodesBoundingRect() const {
  QRectF bounds;
  for (NodeItem *item : m_nodes) bounds |= item->sceneBoundingRect();
  return bounds;
}

QPointF GraphScene::freeSpotNear(QPointF preferred) const {
  QList<QRectF> occupied;
  for (NodeItem *item : m_nodes) occupied.append(item->sceneBoundingRect());
  return freeSpot(occupied, preferred, m_flow, QSizeF(NodeItem::kWidth, NodeItem::kHeight));
}

void GraphScene::fitSceneRect(bool shrink) {
  // Room around the model to drop and drag into, about a view's worth.
  const QRectF wanted = itemsBoundingRect().adjusted(-600, -400, 600, 400);
  setSceneRect(shrink ? wanted : sceneRect() | wanted);
}

void GraphScene::syncFrames() {
  QHash<QString, QList<NodeItem *>> groups;
  for (auto it = m_nodes.begin(); it != m_nodes.end(); ++it) {
    const QString prefix = ModelDocument::blockPrefix(it.key());
    if (!prefix.isEmpty()) groups[prefix].append(it.value());
  }
  for (auto it = m_frames.begin(); it != m_frames.end();) {
    if (groups.contains(it.key())) {
      ++it;
      continue;
    }
    removeItem(it.value());
    delete it.value();
    it = m_frames.erase(it);
  }
  for (auto it = groups.begin(); it != groups.end(); ++it) {
    GroupFrame *frame = m_frames.value(it.key());
    if (!frame) {
      frame = new GroupFrame(it.key());
      addItem(frame);
      m_frames.insert(it.key(), frame);
    }
    frame->fit(it.value());
  }
}

void GraphScene::fitFrameOf(const QString &nodeId) {
  const QString prefix = ModelDocument::blockPrefix(nodeId);
  GroupFrame *frame = m_frames.value(prefix);
  if (!frame) return;
  QList<NodeItem *> members;
  for (auto it = m_nodes.begin(); it != m_nodes.end(); ++it)
    if (ModelDocument::blockPrefix(it.key()) == prefix) members.append(it.value());
  frame->fit(members);
}

void GraphScene::clearEdges() {
  for (EdgeItem *e : m_edges) {
    removeItem(e);
    delete e;
  }
  m_edges.clear();
}

void GraphScene::rebuildEdges() {
  const auto &analysis = m_document->analysis();
  for (const auto &node : m_document->spec().nodes) {
    NodeItem *to = m_nodes.value(QString::fromStdString(node.id));
    for (size_t slot = 0; slot < node.inputs.size(); ++slot) {
      NodeItem *from = m_nodes.value(QString::fromStdString(node.inputs[slot]));
      if (!from || !to) continue;  // an input that does not exist: the node shows the problem
      auto *e = new EdgeItem(from, to, static_cast<int>(slot));
      const spec::NodeInfo *info = analysis.find(node.inputs[slot]);
      if (info && !info->outputShape.empty()) e->setLabel(QString::fromStdString(spec::formatShape(info->outputShape)));
      addItem(e);
      e->updatePath();  // again, now that it can see the nodes it must pass
      m_edges.append(e);
    }
  }
}

NodeItem *GraphScene::nodeAt(const QPointF &scenePoint) const {
  for (QGraphicsItem *item : items(scenePoint))
    if (item->type() == NodeItem::Type) return static_cast<NodeItem *>(item);
  return nullptr;
}

void GraphScene::mousePressEvent(QGraphicsSceneMouseEvent *event) {
  if (event->button() == Qt::LeftButton) {
    NodeItem *item = nodeAt(event->scenePos());
    if (item && item->isOnOutputPort(event->scenePos())) {
      m_connectFrom = item;
      m_rubber = addLine(QLineF(item->outputPort(), event->scenePos()), QPen(Qt::DashLine));
      event->accept();
      return;
    }
  }
  QGraphicsScene::mousePressEvent(event);
}

void GraphScene::mouseMoveEvent(QGraphicsSceneMouseEvent *event) {
  if (m_rubber) {
    m_rubber->setLine(QLineF(m_connectFrom->outputPort(), event->scenePos()));
    event->accept();
    return;
  }
  QGraphicsScene::mouseMoveEvent(event);
}

void GraphScene::mouseReleaseEvent(QGraphicsSceneMouseEvent *event) {
  if (m_rubber) {
    removeItem(m_rubber);
    delete m_rubber;
    m_rubber = nullptr;
    NodeItem *target = nodeAt(event->scenePos());
    const QString from = m_connectFrom->id();
    m_connectFrom = nullptr;
    QString said;
    if (target && target->id() != from) m_document->connectOrReplace(from, target->id(), &said);
    if (!said.isEmpty()) Q_EMIT edgeDropSaid(said);
    event->accept();
    return;
  }
  QGraphicsScene::mouseReleaseEvent(event);
  // A drag moved items on the canvas only; the document records the move as one step.
  QHash<QString, QPointF> moved;
  for (auto it = m_nodes.begin(); it != m_nodes.end(); ++it)
    if (it.value()->pos() != m_document->position(it.key())) moved.insert(it.key(), it.value()->pos());
  if (!moved.isEmpty()) m_document->moveNodes(moved);
}

}  // namespace tw::ui
