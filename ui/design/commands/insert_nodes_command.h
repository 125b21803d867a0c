#pragma once
// Adds nodes (one from the palette, or several pasted with their inner edges) at given places.

#include "core/spec/model_spec.h"

#include <QPointF>
#include <QUndoCommand>
#include <vector>

namespace tw::ui {

class ModelDocument;

class InsertNodesCommand : public QUndoCommand {
 public:
  InsertNodesCommand(ModelDocument *document, std::vector<spec::Node> nodes, std::vector<QPointF> positions,
                     const QString &text);
  void redo() override;
  void undo() override;

 private:
  ModelDocument *m_document;
  std::vector<spec::Node> m_nodes;
  std::vector<QPointF> m_positions;
  std::string m_outputBefore;
};

}  // namespace tw::ui
