#pragma once
// Sets a node's fine-tuning keys (`trainable`, `lr_factor`; model_spec.h). Each edit is its own
// undo step, unlike SetParamCommand: freezing a node and changing its rate are separate decisions
// a person wants to take back one at a time.

#include <QString>
#include <QUndoCommand>

namespace tw::ui {

class ModelDocument;

class SetFineTuningCommand : public QUndoCommand {
 public:
  // The node's keys after the edit; the current ones are kept for undo.
  SetFineTuningCommand(ModelDocument *document, const QString &id, bool trainable, double lrFactor,
                       const QString &text);
  void redo() override;
  void undo() override;

 private:
  void apply(bool trainable, double lrFactor);

  ModelDocument *m_document;
  QString m_node;
  bool m_trainable, m_trainableBefore = true;
  double m_lrFactor, m_lrFactorBefore = 1.0;
};

}  // namespace tw::ui
