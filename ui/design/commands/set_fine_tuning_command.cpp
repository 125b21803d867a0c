#include "ui/design/commands/set_fine_tuning_command.h"

#include "ui/design/model_document.h"

namespace tw::ui {

SetFineTuningCommand::SetFineTuningCommand(ModelDocument *document, const QString &id, bool trainable,
                                           double lrFactor, const QString &text)
    : QUndoCommand(text), m_document(document), m_node(id), m_trainable(trainable), m_lrFactor(lrFactor) {
  if (const spec::Node *node = document->node(id)) {
    m_trainableBefore = node->trainable;
    m_lrFactorBefore = node->lrFactor;
  }
}

void SetFineTuningCommand::apply(bool trainable, double lrFactor) {
  const spec::Node *current = m_document->node(m_node);
  if (!current) return;
  spec::Node node = *current;
  node.trainable = trainable;
  node.lrFactor = lrFactor;
  m_document->replaceNodeRaw(node);
  m_document->refresh();
}

void SetFineTuningCommand::redo() { apply(m_trainable, m_lrFactor); }
void SetFineTuningCommand::undo() { apply(m_trainableBefore, m_lrFactorBefore); }

}  // namespace tw::ui
