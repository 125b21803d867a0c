#include "ui/design/commands/replace_head_command.h"

#include "ui/design/model_document.h"

namespace tw::ui {

ReplaceHeadCommand::ReplaceHeadCommand(ModelDocument *document, spec::Node head, const QString &text)
    : QUndoCommand(text), m_document(document), m_after(std::move(head)) {
  if (const spec::Node *node = document->node(QString::fromStdString(m_after.id))) m_before = *node;
}

void ReplaceHeadCommand::redo() {
  m_document->replaceNodeRaw(m_after);
  m_document->refresh();
}

void ReplaceHeadCommand::undo() {
  m_document->replaceNodeRaw(m_before);
  m_document->refresh();
}

}  // namespace tw::ui
