#include "ui/design/commands/rename_node_command.h"

#include "ui/design/model_document.h"

namespace tw::ui {

RenameNodeCommand::RenameNodeCommand(ModelDocument *document, const QString &from, const QString &to)
    : QUndoCommand(QObject::tr("Rename %1 to %2").arg(from, to)), m_document(document), m_from(from), m_to(to) {}

void RenameNodeCommand::rename(const QString &from, const QString &to) {
  spec::ModelSpec spec = m_document->spec();
  QHash<QString, QPointF> positions = m_document->positions();
  const std::string oldId = from.toStdString(), newId = to.toStdString();
  for (auto &node : spec.nodes) {
    if (node.id == oldId) node.id = newId;
    for (auto &input : node.inputs)
      if (input == oldId) input = newId;
  }
  if (spec.output == oldId) spec.output = newId;
  positions.insert(to, positions.take(from));
  m_document->replaceSpecRaw(spec, positions);
  m_document->refresh();
}

void RenameNodeCommand::redo() { rename(m_from, m_to); }
void RenameNodeCommand::undo() { rename(m_to, m_from); }

}  // namespace tw::ui
