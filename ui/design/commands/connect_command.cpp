#include "ui/design/commands/connect_command.h"

#include "ui/design/model_document.h"

namespace tw::ui {

ConnectCommand::ConnectCommand(ModelDocument *document, const QString &from, const QString &to)
    : QUndoCommand(QObject::tr("Connect %1 to %2").arg(from, to)), m_document(document), m_from(from), m_to(to) {}

void ConnectCommand::redo() {
  spec::Node node = *m_document->node(m_to);
  node.inputs.push_back(m_from.toStdString());
  m_document->replaceNodeRaw(node);
  m_document->refresh();
}

void ConnectCommand::undo() {
  spec::Node node = *m_document->node(m_to);
  // The edge added last is the one to take away (the same pair may be connected twice: Add(x, x)).
  for (auto it = node.inputs.rbegin(); it != node.inputs.rend(); ++it) {
    if (*it == m_from.toStdString()) {
      node.inputs.erase(std::next(it).base());
      break;
    }
  }
  m_document->replaceNodeRaw(node);
  m_document->refresh();
}

}  // namespace tw::ui
