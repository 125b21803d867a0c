#pragma once
// Swaps the model's classifier layer for a fresh Linear with another number of outputs, under the
// same id (model_head.h finds the layer): one undo step, whatever the old node held.

#include "core/spec/model_spec.h"

#include <QUndoCommand>

namespace tw::ui {

class ModelDocument;

class ReplaceHeadCommand : public QUndoCommand {
 public:
  // `head` is the new node; the document's node with its id is kept for undo.
  ReplaceHeadCommand(ModelDocument *document, spec::Node head, const QString &text);
  void redo() override;
  void undo() override;

 private:
  ModelDocument *m_document;
  spec::Node m_after, m_before;
};

}  // namespace tw::ui
