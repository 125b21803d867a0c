#pragma once
// Replaces the whole model: an edit in the YAML view.

#include "core/spec/model_spec.h"

#include <QHash>
#include <QPointF>
#include <QUndoCommand>

namespace tw::ui {

class ModelDocument;

class ReplaceModelCommand : public QUndoCommand {
 public:
  ReplaceModelCommand(ModelDocument *document, spec::ModelSpec spec, QHash<QString, QPointF> positions,
                      const QString &text);
  void redo() override;
  void undo() override;

 private:
  ModelDocument *m_document;
  spec::ModelSpec m_after, m_before;
  QHash<QString, QPointF> m_positionsAfter, m_positionsBefore;
};

}  // namespace tw::ui
