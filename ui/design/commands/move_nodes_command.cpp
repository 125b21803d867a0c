#include "ui/design/commands/move_nodes_command.h"

#include "ui/design/model_document.h"

namespace tw::ui {

MoveNodesCommand::MoveNodesCommand(ModelDocument *document, QHash<QString, QPointF> to, const QString &text)
    : QUndoCommand(text), m_document(document), m_to(std::move(to)) {
  for (auto it = m_to.begin(); it != m_to.end(); ++it) m_from.insert(it.key(), document->position(it.key()));
}

void MoveNodesCommand::place(const QHash<QString, QPointF> &positions) {
  for (auto it = positions.begin(); it != positions.end(); ++it) m_document->setPositionRaw(it.key(), it.value());
  m_document->refresh();
}

void MoveNodesCommand::redo() { place(m_to); }
void MoveNodesCommand::undo() { place(m_from); }

}  // namespace tw::ui
