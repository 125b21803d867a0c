#include "ui/design/commands/disconnect_command.h"

#include "ui/design/model_document.h"

namespace tw::ui {

DisconnectCommand::DisconnectCommand(ModelDocument *document, const QString &from, const QString &to)
    : QUndoCommand(QObject::tr("Disconnect %1 from %2").arg(from, to)), m_document(document), m_from(from), m_to(to) {}

void DisconnectCommand::redo() {
  spec::Node node = *m_document->node(m_to);
  m_slot = -1;
  for (size_t i = 0; i < node.inputs.size(); ++i) {
    if (node.inputs[i] == m_from.toStdString()) {
      m_slot = static_cast<int>(i);
      node.inputs.erase(node.inputs.begin() + static_cast<long>(i));
      break;
    }
  }
  m_document->replaceNodeRaw(node);
  m_document->refresh();
}

void DisconnectCommand::undo() {
  if (m_slot < 0) return;
  spec::Node node = *m_document->node(m_to);
  node.inputs.insert(node.inputs.begin() + m_slot, m_from.toStdString());
  m_document->replaceNodeRaw(node);
  m_document->refresh();
}

}  // namespace tw::ui
