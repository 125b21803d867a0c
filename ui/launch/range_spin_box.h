#pragma once
// Spin boxes for run-file numbers that never clamp in silence. Qt's boxes refuse a keystroke that
// would leave their range, so typing 99999999 into a box of [1, 1048576] leaves 999999 on screen
// and nothing said. These let the whole number be typed, and when editing ends on a number
// outside the range they keep the previous value and say why, with the config table's range.
// The value changes when editing ends (no keyboard tracking), so a number passed on the way to
// another (999999 on the way to 99999999) is never taken; interpretText() ends an edit early.
//
//   auto *batch = new RangeSpinBox(parent);            // tagged with kConfigKeyProperty
//   connect(batch, &RangeSpinBox::refused, page, &showProblem);
//   // "data.batch_size: 99,999,999 is outside [1, 1048576]; it stays 128"

#include <QDoubleSpinBox>
#include <QSpinBox>

namespace tw::ui {

class RangeSpinBox : public QSpinBox {
  Q_OBJECT

 public:
  explicit RangeSpinBox(QWidget *parent = nullptr);
  // Why the text now in the box is not a value it holds; empty when it is one.
  QString inputProblem() const;

 Q_SIGNALS:
  // Editing ended on a number outside the range; the box went back to its previous value.
  void refused(const QString &message);

 protected:
  QValidator::State validate(QString &input, int &pos) const override;
  void fixup(QString &input) const override;
};

class RangeDoubleSpinBox : public QDoubleSpinBox {
  Q_OBJECT

 public:
  explicit RangeDoubleSpinBox(QWidget *parent = nullptr);
  QString inputProblem() const;

 Q_SIGNALS:
  void refused(const QString &message);

 protected:
  QValidator::State validate(QString &input, int &pos) const override;
  void fixup(QString &input) const override;
};

// The inputProblem() of a box of either kind; empty for any other widget.
QString rangeInputProblem(const QWidget *widget);
// Ends the edit under way in a box of either kind (its value takes the text, or it refuses it).
void finishRangeInput(QWidget *widget);

}  // namespace tw::ui
