#include "ui/design/commands/set_checkpoint_command.h"

#include "ui/design/model_document.h"

namespace tw::ui {

SetCheckpointCommand::SetCheckpointCommand(ModelDocument *document, const QString &id, bool on, const QString &text)
    : QUndoCommand(text), m_document(document), m_node(id), m_segment(on ? id.toStdString() : std::string()) {
  if (const spec::Node *node = document->node(id)) m_segmentBefore = node->checkpointSegment;
}

void SetCheckpointCommand::apply(const std::string &segment) {
  const spec::Node *current = m_document->node(m_node);
  if (!current) return;
  spec::Node node = *current;
  node.checkpointSegment = segment;
  m_document->replaceNodeRaw(node);
  m_document->refresh();
}

void SetCheckpointCommand::redo() { apply(m_segment); }
void SetCheckpointCommand::undo() { apply(m_segmentBefore); }

}  // namespace tw::ui
