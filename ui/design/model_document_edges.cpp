// Edges: connecting, disconnecting, an edge dropped onto an input that is taken, and a node
// inserted into a chain; the part of ModelDocument that knows how inputs may be wired.

#include "ui/design/model_document.h"

#include "core/spec/registry.h"
#include "ui/design/commands/connect_command.h"
#include "ui/design/commands/disconnect_command.h"
#include "ui/design/commands/insert_nodes_command.h"
#include "ui/design/commands/move_nodes_command.h"
#include "ui/design/commands/replace_input_command.h"
#include "ui/design/node_item.h"

#include <QSet>
#include <QUndoStack>

#include <algorithm>

namespace tw::ui {

bool ModelDocument::dependsOn(const QString &from, const QString &to) const {
  QSet<QString> seen;
  QStringList pending{from};
  while (!pending.isEmpty()) {
    const QString id = pending.takeLast();
    if (id == to) return true;
    if (seen.contains(id)) continue;
    seen.insert(id);
    if (const spec::Node *n = node(id))
      for (const auto &input : n->inputs) pending << QString::fromStdString(input);
  }
  return false;
}

QString ModelDocument::inputsFull(const spec::Node &to) const {
  const spec::OpDef *def = spec::Registry::instance().find(to.op);
  if (!def || def->maxInputs < 0 || static_cast<int>(to.inputs.size()) < def->maxInputs) return {};
  const QString id = QString::fromStdString(to.id);
  if (def->maxInputs == 0) return tr("%1 is where data comes in: it reads no other node.").arg(id);
  return tr("%1 (%2) takes %3 inputs and has them all; delete an edge into it first.")
      .arg(id, QString::fromStdString(to.op))
      .arg(def->maxInputs);
}

QStringList ModelDocument::readersOf(const QString &id) const {
  QStringList readers;
  for (const auto &n : m_spec.nodes)
    for (const auto &input : n.inputs)
      if (input == id.toStdString()) readers << QString::fromStdString(n.id);
  return readers;
}

bool ModelDocument::connectNodes(const QString &from, const QString &to) {
  const spec::Node *source = node(from), *target = node(to);
  if (!source || !target || from == to || !inputsFull(*target).isEmpty() || dependsOn(from, to)) return false;
  m_undo->push(new ConnectCommand(this, from, to));
  return true;
}

void ModelDocument::disconnectNodes(const QString &from, const QString &to) {
  const spec::Node *target = node(to);
  if (!target) return;
  if (std::find(target->inputs.begin(), target->inputs.end(), from.toStdString()) == target->inputs.end()) return;
  m_undo->push(new DisconnectCommand(this, from, to));
}

bool ModelDocument::connectOrReplace(const QString &from, const QString &to, QString *said) {
  said->clear();
  const spec::Node *source = node(from), *target = node(to);
  if (!source || !target || from == to) return false;
  if (dependsOn(from, to)) {
    *said = tr("Not connected: %2 already feeds %1, so %1 -> %2 would be a cycle.").arg(from, to);
    return false;
  }
  const QString full = inputsFull(*target);
  if (full.isEmpty()) {
    m_undo->push(new ConnectCommand(this, from, to));
    return true;
  }
  // One input, taken: the drop says which node it should read now. With several inputs the
  // drop cannot say which one to replace, so it asks for a deletion first.
  const spec::OpDef *def = spec::Registry::instance().find(target->op);
  if (def->maxInputs != 1) {
    *said = tr("Not connected: %1").arg(full);
    return false;
  }
  const QString previous = QString::fromStdString(target->inputs.front());
  if (previous == from) {
    *said = tr("%1 already reads %2.").arg(to, from);
    return false;
  }
  m_undo->push(new ReplaceInputCommand(this, to, 0, previous, from));
  *said = tr("%1 now reads %2 instead of %3 (Undo puts %3 back).").arg(to, from, previous);
  return true;
}

QString ModelDocument::addNodeAfter(const QString &op, QPointF at, const QString &after) {
  const spec::Node *selected = node(after);
  const spec::OpDef *def = spec::Registry::instance().find(op.toStdString());
  const bool readsInput = def && def->maxInputs != 0;
  if (!selected || !readsInput) return addNode(op, at);
  const spec::Node created = newNode(op);
  const QString id = QString::fromStdString(created.id);
  const QStringList readers = readersOf(after);
  m_undo->beginMacro(tr("Add %1 after %2").arg(op, after));
  if (readers.size() != 1) {  // the end of the model, or a fork: a new branch beside the others
    m_undo->push(new InsertNodesCommand(this, {created}, {at}, tr("Add %1").arg(op)));
    m_undo->push(new ConnectCommand(this, after, id));
    m_undo->endMacro();
    return id;
  }
  // Into the chain: the new node takes the reader's place, and the reader with everything that
  // depends on it moves one layer on, so no edge points against the flow.
  const QString reader = readers.front();
  const QPointF step = m_flow == LayoutFlow::TopToBottom
                           ? QPointF(0, layerStep(m_flow, QSizeF(NodeItem::kWidth, NodeItem::kHeight)))
                           : QPointF(layerStep(m_flow, QSizeF(NodeItem::kWidth, NodeItem::kHeight)), 0);
  QHash<QString, QPointF> moved;
  for (const auto &n : m_spec.nodes) {
    const QString nid = QString::fromStdString(n.id);
    if (dependsOn(nid, reader)) moved.insert(nid, position(nid) + step);
  }
  const spec::Node *readerNode = node(reader);
  const auto slot = std::find(readerNode->inputs.begin(), readerNode->inputs.end(), after.toStdString());
  const int readerSlot = static_cast<int>(slot - readerNode->inputs.begin());
  m_undo->push(new InsertNodesCommand(this, {created}, {position(reader)}, tr("Add %1").arg(op)));
  m_undo->push(new ConnectCommand(this, after, id));
  m_undo->push(new ReplaceInputCommand(this, reader, readerSlot, after, id));
  m_undo->push(new MoveNodesCommand(this, moved, tr("Make room for %1").arg(id)));
  m_undo->endMacro();
  return id;
}

}  // namespace tw::ui
