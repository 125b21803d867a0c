#pragma once
// Connects the output of one node to an input of another (appended to its inputs).

#include <QString>
#include <QUndoCommand>

namespace tw::ui {

class ModelDocument;

class ConnectCommand : public QUndoCommand {
 public:
  ConnectCommand(ModelDocument *document, const QString &from, const QString &to);
  void redo() override;
  void undo() override;

 private:
  ModelDocument *m_document;
  QString m_from, m_to;
};

}  // namespace tw::ui
