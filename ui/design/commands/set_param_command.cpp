#include "ui/design/commands/set_param_command.h"

#include "ui/design/model_document.h"

namespace tw::ui {

SetParamCommand::SetParamCommand(ModelDocument *document, const QString &id, const QString &param,
                                 std::optional<spec::ParamValue> value)
    : QUndoCommand(value ? QObject::tr("Set %1.%2").arg(id, param) : QObject::tr("Reset %1.%2").arg(id, param)),
      m_document(document), m_node(id), m_param(param), m_value(std::move(value)) {
  const spec::Node *node = document->node(id);
  if (node) {
    auto it = node->params.find(param.toStdString());
    if (it != node->params.end()) m_before = it->second;
  }
}

void SetParamCommand::apply(const std::optional<spec::ParamValue> &value) {
  const spec::Node *current = m_document->node(m_node);
  if (!current) return;
  spec::Node node = *current;
  if (value) node.params[m_param.toStdString()] = *value;
  else node.params.erase(m_param.toStdString());
  m_document->replaceNodeRaw(node);
  m_document->refresh();
}

void SetParamCommand::redo() { apply(m_value); }
void SetParamCommand::undo() { apply(m_before); }

bool SetParamCommand::mergeWith(const QUndoCommand *other) {
  const auto *next = static_cast<const SetParamCommand *>(other);
  if (next->m_node != m_node || next->m_param != m_param) return false;
  m_value = next->m_value;
  return true;
}

}  // namespace tw::ui
