#include "ui/design/commands/replace_input_command.h"

#include "ui/design/model_document.h"

namespace tw::ui {

ReplaceInputCommand::ReplaceInputCommand(ModelDocument *document, const QString &to, int slot, const QString &previous,
                                         const QString &from)
    : QUndoCommand(QObject::tr("Connect %1 to %2 instead of %3").arg(from, to, previous)), m_document(document),
      m_to(to), m_previous(previous), m_from(from), m_slot(slot) {}

void ReplaceInputCommand::point(const QString &source) {
  spec::Node node = *m_document->node(m_to);
  node.inputs.at(static_cast<size_t>(m_slot)) = source.toStdString();
  m_document->replaceNodeRaw(node);
  m_document->refresh();
}

void ReplaceInputCommand::redo() { point(m_from); }
void ReplaceInputCommand::undo() { point(m_previous); }

}  // namespace tw::ui
