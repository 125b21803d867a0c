#pragma once
// Points one input of a node at another source: an edge dropped onto an input that is taken
// replaces the edge there, and a node inserted into a chain takes over its reader's input.

#include <QString>
#include <QUndoCommand>

namespace tw::ui {

class ModelDocument;

class ReplaceInputCommand : public QUndoCommand {
 public:
  // Input `slot` of `to` reads `from` instead of `previous` (what it reads now).
  ReplaceInputCommand(ModelDocument *document, const QString &to, int slot, const QString &previous, const QString &from);
  void redo() override;
  void undo() override;

 private:
  void point(const QString &source);

  ModelDocument *m_document;
  QString m_to, m_previous, m_from;
  int m_slot;
};

}  // namespace tw::ui
