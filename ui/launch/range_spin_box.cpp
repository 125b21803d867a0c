#include "ui/launch/range_spin_box.h"

#include "core/config/config_fields.h"
#include "ui/common/number_format.h"
#include "ui/launch/config_widgets.h"

#include <QCoreApplication>
#include <QLineEdit>
#include <QLocale>

#include <cmath>

namespace tw::ui {

namespace {

// The number a person typed, in the box's locale with or without group separators; false when
// the text is no number (then Qt's own validation answers).
bool typedNumber(const QAbstractSpinBox *box, const QString &prefix, const QString &suffix, QString text,
                 double *value) {
  text = text.trimmed();
  if (!prefix.isEmpty() && text.startsWith(prefix)) text = text.mid(prefix.size());
  if (!suffix.isEmpty() && text.endsWith(suffix)) text.chop(suffix.size());
  text = text.trimmed();
  if (text.isEmpty() || text == box->specialValueText()) return false;
  const QLocale locale = box->locale();
  text.remove(locale.groupSeparator());
  bool ok = false;
  *value = locale.toDouble(text, &ok);
  return ok && std::isfinite(*value);
}

// The config table's range, unless the number is inside it and only the box cannot hold it (an
// open end beyond an int): then the box's own bounds.
QString problemText(const QAbstractSpinBox *box, const QString &typed, double value, double min, double max,
                    const QString &kept) {
  const QString key = box->property(kConfigKeyProperty).toString();
  QString range;
  if (const config::ConfigField *field = config::findConfigField(key.toStdString());
      field && ((field->min && value < *field->min) || (field->max && value > *field->max)))
    range = QString::fromStdString(config::rangeText(*field));
  if (range.isEmpty()) range = QStringLiteral("[%1, %2]").arg(formatNumber(min, 17), formatNumber(max, 17));
  const QString name = key.isEmpty() ? QCoreApplication::translate("tw::ui::RangeSpinBox", "The value") : key;
  return QCoreApplication::translate("tw::ui::RangeSpinBox", "%1: %2 is outside %3; it stays %4")
      .arg(name, typed.trimmed(), range, kept);
}

// Out of range but a number: typing goes on (Intermediate), so nothing is cut off unseen.
template <typename Box>
QValidator::State widened(const Box *box, QValidator::State state, const QString &input) {
  if (state != QValidator::Invalid) return state;
  double value = 0.0;
  if (!typedNumber(box, box->prefix(), box->suffix(), input, &value)) return state;
  return value < box->minimum() || value > box->maximum() ? QValidator::Intermediate : state;
}

// `kept` is the value the box goes back to, as the box shows it.
template <typename Box>
QString problemOf(const Box *box, const QString &input, const QString &kept) {
  double value = 0.0;
  if (!typedNumber(box, box->prefix(), box->suffix(), input, &value)) return {};
  if (value >= box->minimum() && value <= box->maximum()) return {};
  return problemText(box, input, value, box->minimum(), box->maximum(), kept);
}

}  // namespace

RangeSpinBox::RangeSpinBox(QWidget *parent) : QSpinBox(parent) { setKeyboardTracking(false); }

QString RangeSpinBox::inputProblem() const { return problemOf(this, lineEdit()->text(), textFromValue(value())); }

QValidator::State RangeSpinBox::validate(QString &input, int &pos) const {
  return widened(this, QSpinBox::validate(input, pos), input);
}

// fixup is const in Qt's interface; saying why the input goes back changes nothing of the box.
void RangeSpinBox::fixup(QString &input) const {
  if (const QString problem = problemOf(this, input, textFromValue(value())); !problem.isEmpty())
    Q_EMIT const_cast<RangeSpinBox *>(this)->refused(problem);
  QSpinBox::fixup(input);
}

RangeDoubleSpinBox::RangeDoubleSpinBox(QWidget *parent) : QDoubleSpinBox(parent) { setKeyboardTracking(false); }

QString RangeDoubleSpinBox::inputProblem() const { return problemOf(this, lineEdit()->text(), textFromValue(value())); }

QValidator::State RangeDoubleSpinBox::validate(QString &input, int &pos) const {
  return widened(this, QDoubleSpinBox::validate(input, pos), input);
}

void RangeDoubleSpinBox::fixup(QString &input) const {
  if (const QString problem = problemOf(this, input, textFromValue(value())); !problem.isEmpty())
    Q_EMIT const_cast<RangeDoubleSpinBox *>(this)->refused(problem);
  QDoubleSpinBox::fixup(input);
}

QString rangeInputProblem(const QWidget *widget) {
  if (auto *box = qobject_cast<const RangeSpinBox *>(widget)) return box->inputProblem();
  if (auto *box = qobject_cast<const RangeDoubleSpinBox *>(widget)) return box->inputProblem();
  return {};
}

void finishRangeInput(QWidget *widget) {
  if (qobject_cast<RangeSpinBox *>(widget) || qobject_cast<RangeDoubleSpinBox *>(widget))
    static_cast<QAbstractSpinBox *>(widget)->interpretText();
}

}  // namespace tw::ui
