#pragma once
// Sets one parameter of a node, or resets it to its default (no value); consecutive edits of the
// same field merge into one undo step, so typing 1-2-8 undoes as one change.

#include "core/spec/param.h"

#include <QString>
#include <QUndoCommand>
#include <optional>

namespace tw::ui {

class ModelDocument;

class SetParamCommand : public QUndoCommand {
 public:
  SetParamCommand(ModelDocument *document, const QString &id, const QString &param,
                  std::optional<spec::ParamValue> value);
  void redo() override;
  void undo() override;
  int id() const override { return 4201; }
  bool mergeWith(const QUndoCommand *other) override;

 private:
  void apply(const std::optional<spec::ParamValue> &value);

  ModelDocument *m_document;
  QString m_node, m_param;
  std::optional<spec::ParamValue> m_value, m_before;
};

}  // namespace tw::ui
