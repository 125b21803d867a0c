#pragma once
// Undoable: a node's `checkpoint_activations` on or off (model_spec.h). On, the node is its own
// segment; off, it is in none. A member of a checkpointed block instance keeps the instance's
// segment until it is switched off itself.

#include <QString>
#include <QUndoCommand>

namespace tw::ui {

class ModelDocument;

class SetCheckpointCommand : public QUndoCommand {
 public:
  SetCheckpointCommand(ModelDocument *document, const QString &id, bool on, const QString &text);
  void redo() override;
  void undo() override;

 private:
  void apply(const std::string &segment);

  ModelDocument *m_document;
  QString m_node;
  std::string m_segment, m_segmentBefore;
};

}  // namespace tw::ui
