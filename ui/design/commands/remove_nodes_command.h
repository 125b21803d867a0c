#pragma once
// Deletes nodes and every edge into or out of them; undo puts back nodes, order and edges.

#include "core/spec/model_spec.h"

#include <QHash>
#include <QPointF>
#include <QStringList>
#include <QUndoCommand>

namespace tw::ui {

class ModelDocument;

class RemoveNodesCommand : public QUndoCommand {
 public:
  RemoveNodesCommand(ModelDocument *document, const QStringList &ids);
  void redo() override;
  void undo() override;

 private:
  ModelDocument *m_document;
  QStringList m_ids;
  spec::ModelSpec m_before;  // small: a model is tens of nodes, and exact restore is what matters
  QHash<QString, QPointF> m_positionsBefore;
};

}  // namespace tw::ui
