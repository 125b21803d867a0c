#pragma once
// Removes one edge; undo puts it back in the same input slot (input order matters to Concat).

#include <QString>
#include <QUndoCommand>

namespace tw::ui {

class ModelDocument;

class DisconnectCommand : public QUndoCommand {
 public:
  DisconnectCommand(ModelDocument *document, const QString &from, const QString &to);
  void redo() override;
  void undo() override;

 private:
  ModelDocument *m_document;
  QString m_from, m_to;
  int m_slot = -1;
};

}  // namespace tw::ui
