#pragma once
// Renames a node and every reference to it (other nodes' inputs, the model's output).

#include <QString>
#include <QUndoCommand>

namespace tw::ui {

class ModelDocument;

class RenameNodeCommand : public QUndoCommand {
 public:
  RenameNodeCommand(ModelDocument *document, const QString &from, const QString &to);
  void redo() override;
  void undo() override;

 private:
  void rename(const QString &from, const QString &to);

  ModelDocument *m_document;
  QString m_from, m_to;
};

}  // namespace tw::ui
