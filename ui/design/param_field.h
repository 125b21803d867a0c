#pragma once
// One parameter row of the PropertyEditor: the editor widget chosen by the parameter's type
// (spin box, check box, combo box or text field), its caption and a reset button.
//
// A field is either written (the value is in the model file: normal look, reset button shown)
// or implicit (default, inferred "auto (1)", or a missing required value: grey italic). A value
// the registry's validator rejects (typed, or read from the file) is shown as written, in red,
// with the validator's message under it, and is never applied: the model keeps its value. Int
// and Float spin boxes accept any number so nothing typed is silently clamped; their lowest
// slot is the implicit state, and stepping up from it starts at the parameter's minimum.

#include "core/spec/param.h"

#include <QPalette>
#include <QWidget>

#include <optional>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QToolButton;

namespace tw::ui {

class ParamField : public QWidget {
  Q_OBJECT

 public:
  // `def` is copied; the caption label is created as a child of `parent` for the form's label column.
  ParamField(const spec::ParamDef &def, QWidget *parent);

  const spec::ParamDef &def() const { return m_def; }
  QLabel *label() const { return m_label; }
  QWidget *editor() const { return m_editor; }
  bool isWritten() const { return m_written; }

  // Fills the editor without emitting. `written`: the value in the file (any type, as parsed);
  // `resolved`: the analysed value (defaults and inferred values filled in), null when unknown.
  void showValue(const spec::ParamValue *written, const spec::ParamValue *resolved);

  // Splits "3", "3, 3", "[1, 28, 28]" or "1 28 28" into ints; nullopt when a part is not an integer.
  static std::optional<spec::IntList> parseInts(const QString &text);

 Q_SIGNALS:
  // An IntPair typed as one number is emitted as an int (the short form of the file).
  void edited(const tw::spec::ParamValue &value);
  void resetRequested();
  // A typed value the validator refused, with its message; nothing was applied.
  void refused(const QString &message);

 private:
  enum class Look { Written, Implicit, Invalid };

  // Whether removing the written value leaves something (a default or an inferred value).
  bool hasFallback() const { return m_def.inferred || m_def.defaultValue.has_value(); }
  void createEditor();
  void refresh();
  void setLook(Look look);
  QString implicitText(const spec::ParamValue *resolved) const;
  // What the editor holds now: nullopt for the implicit state; on a value the validator refuses,
  // *problem says why (it stays empty otherwise).
  std::optional<spec::ParamValue> currentValue(QString *problem) const;
  void showProblem(const QString &problem);
  void commit();
  void onTextEdited();
  bool sameValue(const std::optional<spec::ParamValue> &a, const std::optional<spec::ParamValue> &b) const;

  spec::ParamDef m_def;
  QLabel *m_label = nullptr;
  QWidget *m_editor = nullptr;
  QToolButton *m_reset = nullptr;
  QLabel *m_message = nullptr;  // the validator's message while the value is refused
  QSpinBox *m_int = nullptr;
  QDoubleSpinBox *m_float = nullptr;
  QCheckBox *m_bool = nullptr;
  QComboBox *m_choice = nullptr;
  QLineEdit *m_text = nullptr;
  QPalette m_basePalette;
  bool m_written = false;
  std::optional<spec::ParamValue> m_writtenValue;   // showValue()'s arguments, for refresh()
  std::optional<spec::ParamValue> m_resolvedValue;
  std::optional<spec::ParamValue> m_shown;  // what showValue() or the last commit put there
};

}  // namespace tw::ui
