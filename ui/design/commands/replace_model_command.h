#pragma once
// Replaces the whole model: an edit in the YAML view, or New (which also leaves the model's file:
// the new model is not what that file holds; undo returns to both).

#include "core/spec/model_spec.h"

#include <QHash>
#include <QPointF>
#include <QUndoCommand>

namespace tw::ui {

class ModelDocument;

class ReplaceModelCommand : public QUndoCommand {
 public:
  ReplaceModelCommand(ModelDocument *document, spec::ModelSpec spec, QHash<QString, QPointF> positions,
                      const QString &text, bool leavesFile = false);
  void redo() override;
  void undo() override;

 private:
  ModelDocument *m_document;
  spec::ModelSpec m_after, m_before;
  QHash<QString, QPointF> m_positionsAfter, m_positionsBefore;
  QString m_fileAfter, m_fileBefore;
};

}  // namespace tw::ui
