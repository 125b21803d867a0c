#pragma once
// The Design page's property panel: a form generated from the registry's schema for the selected
// node (one row per parameter, the editor chosen by its type), plus the node's id and the
// validator's message for it; below them, for a node with parameters, its fine-tuning keys
// (fine_tuning_fields.h). Edits are reported as signals; the owner applies them to the
// document (undoably) and calls showNode() again with the re-analysed node.
//
//   editor->showNode(node, analysis.find(node.id), problemFor(node.id));
//   connect(editor, &PropertyEditor::paramEdited, doc, &Document::setParam);

#include "core/spec/analysis.h"

#include <QString>
#include <QWidget>

#include <vector>

class QCheckBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QScrollArea;

namespace tw::ui {

class FineTuningFields;
class ParamField;

class PropertyEditor : public QWidget {
  Q_OBJECT

 public:
  explicit PropertyEditor(QWidget *parent = nullptr);

  // `info` is null when the graph could not be analysed; `problem` is "" when the node is fine.
  // The form is rebuilt only when the op changes; otherwise values are updated in place, so
  // the field being typed in keeps its focus.
  void showNode(const tw::spec::Node &node, const tw::spec::NodeInfo *info, const QString &problem);
  // Shows a hint instead of the form.
  void clear();

  // For tests: the editor widget of a parameter (nullptr when the op has none), the id field.
  QWidget *editorFor(const QString &param) const;
  QLineEdit *idEdit() const;
  // For tests: the Fine-tuning group (hidden for nodes without parameters).
  FineTuningFields *fineTuning() const { return m_fineTuning; }
  // For tests: the node's `checkpoint_activations` check box.
  QCheckBox *checkpointBox() const { return m_checkpoint; }
  QString nodeId() const { return m_nodeId; }

 Q_SIGNALS:
  // Only on user edits: text and spin fields on editingFinished, check and combo boxes on change.
  void paramEdited(const QString &nodeId, const QString &param, const tw::spec::ParamValue &value);
  void paramReset(const QString &nodeId, const QString &param);
  // A typed value the validator refused: the field stays red with the message, nothing is applied.
  void paramRefused(const QString &nodeId, const QString &param, const QString &message);
  void idEdited(const QString &oldId, const QString &newId);
  // The fine-tuning keys. A refused factor is reported by paramRefused with the param "lr_factor".
  void trainableEdited(const QString &nodeId, bool trainable);
  void lrFactorEdited(const QString &nodeId, double lrFactor);
  void checkpointEdited(const QString &nodeId, bool on);

 private:
  void rebuild(const QString &op);
  void commitId();

  QLabel *m_hint = nullptr;
  QScrollArea *m_scroll = nullptr;
  QLabel *m_problem = nullptr;
  QLabel *m_title = nullptr;
  QLabel *m_doc = nullptr;
  QFormLayout *m_form = nullptr;
  QLineEdit *m_idEdit = nullptr;
  FineTuningFields *m_fineTuning = nullptr;
  QCheckBox *m_checkpoint = nullptr;
  std::vector<ParamField *> m_fields;  // owned by the form's rows
  QString m_nodeId;
  QString m_op;
  bool m_built = false;
};

}  // namespace tw::ui
