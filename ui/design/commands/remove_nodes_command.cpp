#include "ui/design/commands/remove_nodes_command.h"

#include "ui/design/model_document.h"

#include <algorithm>

namespace tw::ui {

RemoveNodesCommand::RemoveNodesCommand(ModelDocument *document, const QStringList &ids)
    : QUndoCommand(ids.size() == 1 ? QObject::tr("Delete %1").arg(ids.front())
                                   : QObject::tr("Delete %1 nodes").arg(ids.size())),
      m_document(document), m_ids(ids) {}

void RemoveNodesCommand::redo() {
  m_before = m_document->spec();
  m_positionsBefore = m_document->positions();
  for (const QString &id : m_ids) m_document->removeNodeRaw(id);
  // Edges from the removed nodes go with them.
  for (const auto &node : m_document->spec().nodes) {
    spec::Node kept = node;
    const auto gone = [&](const std::string &input) { return m_ids.contains(QString::fromStdString(input)); };
    if (std::any_of(kept.inputs.begin(), kept.inputs.end(), gone)) {
      kept.inputs.erase(std::remove_if(kept.inputs.begin(), kept.inputs.end(), gone), kept.inputs.end());
      m_document->replaceNodeRaw(kept);
    }
  }
  m_document->refresh();
}

void RemoveNodesCommand::undo() {
  m_document->replaceSpecRaw(m_before, m_positionsBefore);
  m_document->refresh();
}

}  // namespace tw::ui
