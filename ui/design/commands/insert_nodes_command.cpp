#include "ui/design/commands/insert_nodes_command.h"

#include "ui/design/model_document.h"

namespace tw::ui {

InsertNodesCommand::InsertNodesCommand(ModelDocument *document, std::vector<spec::Node> nodes,
                                       std::vector<QPointF> positions, const QString &text)
    : QUndoCommand(text), m_document(document), m_nodes(std::move(nodes)), m_positions(std::move(positions)) {}

void InsertNodesCommand::redo() {
  m_outputBefore = m_document->spec().output;
  for (size_t i = 0; i < m_nodes.size(); ++i)
    m_document->insertNodeRaw(static_cast<int>(m_document->spec().nodes.size()), m_nodes[i], m_positions[i]);
  m_document->refresh();
}

void InsertNodesCommand::undo() {
  for (auto it = m_nodes.rbegin(); it != m_nodes.rend(); ++it) m_document->removeNodeRaw(QString::fromStdString(it->id));
  m_document->setOutputRaw(QString::fromStdString(m_outputBefore));
  m_document->refresh();
}

}  // namespace tw::ui
