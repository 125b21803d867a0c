#pragma once
// Moves nodes on the canvas (a drag, or the automatic layout).

#include <QHash>
#include <QPointF>
#include <QString>
#include <QUndoCommand>

namespace tw::ui {

class ModelDocument;

class MoveNodesCommand : public QUndoCommand {
 public:
  MoveNodesCommand(ModelDocument *document, QHash<QString, QPointF> to, const QString &text);
  void redo() override;
  void undo() override;

 private:
  void place(const QHash<QString, QPointF> &positions);

  ModelDocument *m_document;
  QHash<QString, QPointF> m_to, m_from;
};

}  // namespace tw::ui
