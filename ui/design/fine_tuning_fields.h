#pragma once
// The property form's "Fine-tuning" group: whether the node's parameters are trained (the file's
// `trainable`) and the factor its learning rate is scaled by (`lr_factor`; model_spec.h), as
// MATLAB's Deep Network Designer offers them for a layer with learnable parameters. The factor is
// typed as text so that anything can be typed and what the parser refuses (0, -1, "abc") is shown
// red with the reason and never applied, like a refused parameter.
//
//   fields->showValues(node.trainable, node.lrFactor);
//   connect(fields, &FineTuningFields::lrFactorEdited, ...);

#include <QGroupBox>

#include <optional>

class QCheckBox;
class QLabel;
class QLineEdit;

namespace tw::ui {

class FineTuningFields : public QGroupBox {
  Q_OBJECT

 public:
  explicit FineTuningFields(QWidget *parent = nullptr);

  // Fills the fields without emitting; a refused factor still in the field gives way to the node's.
  void showValues(bool trainable, double lrFactor);

  QCheckBox *trainableBox() const { return m_trainable; }
  QLineEdit *lrFactorEdit() const { return m_factor; }
  // The message under the factor while it is refused ("" otherwise).
  QString problem() const;

  // A factor as typed, in the locale's form or the file's ("0,1" or "0.1" in German); empty
  // text is the default, 1. nullopt with *problem set when it is not a number above 0.
  std::optional<double> parseFactor(const QString &text, QString *problem) const;

 Q_SIGNALS:
  // Only on user edits: the check box on toggle, the factor on editingFinished.
  void trainableEdited(bool trainable);
  void lrFactorEdited(double lrFactor);
  // A typed factor refused with its message; the field stays red, the model keeps its factor.
  void lrFactorRefused(const QString &message);

 private:
  void commitFactor();
  void showProblem(const QString &problem);

  QCheckBox *m_trainable = nullptr;
  QLineEdit *m_factor = nullptr;
  QLabel *m_message = nullptr;
  QPalette m_basePalette;
  double m_shownFactor = 1.0;  // the node's factor as last shown or committed
};

}  // namespace tw::ui
