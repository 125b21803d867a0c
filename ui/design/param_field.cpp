#include "ui/design/param_field.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <climits>
#include <cmath>

namespace tw::ui {

namespace {

using spec::IntList;
using spec::ParamType;
using spec::ParamValue;

// The spin boxes' lowest value is the implicit state; everything above it can be typed, even
// what the parameter's bounds refuse, so that a refusal is shown rather than the value clamped.
constexpr int kIntImplicit = -INT_MAX;
constexpr double kFloatWide = 1e9;
constexpr double kFloatImplicit = -kFloatWide - 1;

// Stepping up from the implicit state starts at the lowest value the parameter accepts.
class FieldSpinBox : public QSpinBox {
 public:
  FieldSpinBox(int start, QWidget *parent) : QSpinBox(parent), m_start(start) {}
  void stepBy(int steps) override {
    if (value() == minimum() && steps > 0) setValue(m_start);
    else QSpinBox::stepBy(steps);
  }

 private:
  int m_start;
};

class FieldDoubleSpinBox : public QDoubleSpinBox {
 public:
  FieldDoubleSpinBox(double start, QWidget *parent) : QDoubleSpinBox(parent), m_start(start) {}
  void stepBy(int steps) override {
    if (value() == minimum() && steps > 0) setValue(m_start);
    else QDoubleSpinBox::stepBy(steps);
  }

 private:
  double m_start;
};

bool asInt(const ParamValue &value, int64_t &out) {
  if (auto i = std::get_if<int64_t>(&value)) return out = *i, true;
  if (auto d = std::get_if<double>(&value); d && std::floor(*d) == *d && std::fabs(*d) < 9e15)
    return out = static_cast<int64_t>(*d), true;
  return false;
}

bool asDouble(const ParamValue &value, double &out) {
  if (auto d = std::get_if<double>(&value)) return out = *d, true;
  if (auto i = std::get_if<int64_t>(&value)) return out = static_cast<double>(*i), true;
  return false;
}

QString numberText(double v) { return QString::number(v, 'g', 12); }

// "1, 28, 28" for lists (the form the text field accepts back), the file's form otherwise.
QString valueText(const ParamValue &value) {
  if (auto list = std::get_if<IntList>(&value)) {
    QStringList parts;
    for (int64_t v : *list) parts << QString::number(v);
    return parts.join(QStringLiteral(", "));
  }
  return QString::fromStdString(spec::formatParamValue(value));
}

QString rangeText(const spec::ParamDef &def) {
  if (def.min && def.max) return numberText(*def.min) + QStringLiteral(" … ") + numberText(*def.max);
  if (def.min) return QStringLiteral("≥ ") + numberText(*def.min);
  if (def.max) return QStringLiteral("≤ ") + numberText(*def.max);
  return {};
}

QString toolTipFor(const spec::ParamDef &def) {
  QStringList lines;
  if (!def.doc.empty()) lines << QString::fromStdString(def.doc);
  QString type = ParamField::tr("Type: %1").arg(QString::fromStdString(spec::paramTypeName(def.type)));
  const QString range = rangeText(def);
  if (!range.isEmpty()) type += QStringLiteral(", ") + range;
  lines << type;
  if (!def.choices.empty()) {
    QStringList choices;
    for (const std::string &c : def.choices) choices << QString::fromStdString(c);
    lines << ParamField::tr("One of: %1").arg(choices.join(QStringLiteral(", ")));
  }
  if (def.inferred) lines << ParamField::tr("Taken from the incoming shape when not set.");
  else if (def.defaultValue) lines << ParamField::tr("Default: %1").arg(valueText(*def.defaultValue));
  else lines << ParamField::tr("Required.");
  return lines.join(QLatin1Char('\n'));
}

}  // namespace

ParamField::ParamField(const spec::ParamDef &def, QWidget *parent) : QWidget(parent), m_def(def) {
  m_label = new QLabel(QString::fromStdString(def.name), parent);
  createEditor();
  const QString tip = toolTipFor(def);
  m_label->setToolTip(tip);
  m_label->setBuddy(m_editor);
  m_editor->setToolTip(tip);
  m_basePalette = m_editor->palette();

  m_reset = new QToolButton(this);
  m_reset->setAutoRaise(true);
  m_reset->setIcon(style()->standardIcon(QStyle::SP_DialogResetButton));
  m_reset->setText(QStringLiteral("↺"));  // shown where the style has no icon
  m_reset->setToolTip(tr("Reset to default"));
  m_reset->setAccessibleName(tr("Reset to default"));
  // Rows keep the same width whether or not their value is written.
  QSizePolicy keep = m_reset->sizePolicy();
  keep.setRetainSizeWhenHidden(true);
  m_reset->setSizePolicy(keep);
  m_reset->hide();
  connect(m_reset, &QToolButton::clicked, this, [this] {
    if (!m_written) return;
    m_written = false;
    Q_EMIT resetRequested();
  });

  m_message = new QLabel(this);
  m_message->setObjectName(QStringLiteral("fieldProblem"));
  m_message->setWordWrap(true);
  m_message->setStyleSheet(QStringLiteral("color: #c0392b;"));
  m_message->hide();

  auto *row = new QHBoxLayout;
  row->setContentsMargins(0, 0, 0, 0);
  row->setSpacing(2);
  row->addWidget(m_editor, 1);
  row->addWidget(m_reset);
  auto *layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(1);
  layout->addLayout(row);
  layout->addWidget(m_message);
  setFocusProxy(m_editor);
}

void ParamField::createEditor() {
  switch (m_def.type) {
    case ParamType::Int: {
      const double start = m_def.min ? std::clamp(*m_def.min, double(kIntImplicit + 1), double(INT_MAX)) : 0.0;
      m_int = new FieldSpinBox(static_cast<int>(start), this);
      m_int->setRange(kIntImplicit, INT_MAX);
      connect(m_int, &QSpinBox::editingFinished, this, &ParamField::commit);
      m_editor = m_int;
      return;
    }
    case ParamType::Float: {
      m_float = new FieldDoubleSpinBox(m_def.min ? std::clamp(*m_def.min, -kFloatWide, kFloatWide) : 0.0, this);
      m_float->setDecimals(6);  // before the range, which is rounded to it
      m_float->setRange(kFloatImplicit, kFloatWide);
      connect(m_float, &QDoubleSpinBox::editingFinished, this, &ParamField::commit);
      m_editor = m_float;
      return;
    }
    case ParamType::Bool:
      m_bool = new QCheckBox(this);
      connect(m_bool, &QCheckBox::toggled, this, &ParamField::commit);
      m_editor = m_bool;
      return;
    case ParamType::String:
      if (!m_def.choices.empty()) {
        m_choice = new QComboBox(this);
        for (const std::string &c : m_def.choices) m_choice->addItem(QString::fromStdString(c));
        connect(m_choice, &QComboBox::currentIndexChanged, this, &ParamField::commit);
        m_editor = m_choice;
        return;
      }
      [[fallthrough]];
    case ParamType::IntPair:
    case ParamType::IntList:
      m_text = new QLineEdit(this);
      m_text->setClearButtonEnabled(hasFallback());
      connect(m_text, &QLineEdit::editingFinished, this, &ParamField::commit);
      connect(m_text, &QLineEdit::textEdited, this, &ParamField::onTextEdited);
      m_editor = m_text;
      return;
  }
  m_text = new QLineEdit(this);  // an unknown type: still editable as text, never a null editor
  m_editor = m_text;
}

QString ParamField::implicitText(const ParamValue *resolved) const {
  if (m_def.inferred) return resolved && !m_written ? tr("auto (%1)").arg(valueText(*resolved)) : tr("auto");
  if (m_def.defaultValue) return tr("default (%1)").arg(valueText(*m_def.defaultValue));
  return tr("required");
}

void ParamField::showValue(const ParamValue *written, const ParamValue *resolved) {
  m_writtenValue = written ? std::optional<ParamValue>(*written) : std::nullopt;
  m_resolvedValue = resolved ? std::optional<ParamValue>(*resolved) : std::nullopt;
  refresh();
}

void ParamField::refresh() {
  const QSignalBlocker block(m_editor);
  const ParamValue *written = m_writtenValue ? &*m_writtenValue : nullptr;
  const ParamValue *resolved = m_resolvedValue ? &*m_resolvedValue : nullptr;
  m_written = written != nullptr;
  // An inferred value is shown as "auto (...)" rather than as if it had been typed.
  const ParamValue *shown = written ? written : (!m_def.inferred && m_def.defaultValue ? &*m_def.defaultValue : nullptr);
  const QString implicit = implicitText(resolved);
  bool invalid = false;
  QString problem;
  m_shown.reset();

  if (m_int) {
    m_int->setSpecialValueText(implicit);
    int64_t v = 0;
    if (shown && asInt(*shown, v) && v > m_int->minimum() && v <= m_int->maximum()) {
      m_int->setValue(static_cast<int>(v));
      m_shown = v;
      if (auto refusal = spec::checkParamValue(m_def, *shown)) problem = QString::fromStdString(*refusal);
    } else {
      invalid = shown != nullptr;
      if (invalid) m_int->setSpecialValueText(valueText(*shown));  // what the file says, in red
      m_int->setValue(m_int->minimum());
    }
  } else if (m_float) {
    m_float->setSpecialValueText(implicit);
    double v = 0;
    if (shown && asDouble(*shown, v) && v > m_float->minimum() && v <= m_float->maximum()) {
      m_float->setValue(v);
      m_shown = m_float->value();  // rounded to the shown decimals, as a later commit reads it
      if (auto refusal = spec::checkParamValue(m_def, *shown)) problem = QString::fromStdString(*refusal);
    } else {
      invalid = shown != nullptr;
      if (invalid) m_float->setSpecialValueText(valueText(*shown));
      m_float->setValue(m_float->minimum());
    }
  } else if (m_bool) {
    const ParamValue *value = shown ? shown : resolved;
    const bool *b = value ? std::get_if<bool>(value) : nullptr;
    invalid = shown && !b;
    m_bool->setChecked(b && *b);
    if (shown && b) m_shown = *b;
  } else if (m_choice) {
    m_choice->setPlaceholderText(implicit);
    const int index = shown ? m_choice->findText(valueText(*shown)) : -1;
    invalid = shown && index < 0;
    if (invalid) m_choice->setPlaceholderText(valueText(*shown));
    m_choice->setCurrentIndex(index);
    if (index >= 0) m_shown = m_choice->currentText().toStdString();
  } else if (m_text) {
    m_text->setPlaceholderText(implicit);
    m_text->setText(shown ? valueText(*shown) : QString());
    m_shown = currentValue(&problem);
  }
  invalid = invalid || !problem.isEmpty();
  m_reset->setVisible(m_written && hasFallback());
  setLook(invalid ? Look::Invalid : m_written ? Look::Written : Look::Implicit);
  showProblem(problem);
}

void ParamField::showProblem(const QString &problem) {
  m_message->setText(problem);
  m_message->setVisible(!problem.isEmpty());
}

void ParamField::setLook(Look look) {
  QPalette palette = m_basePalette;
  QColor color;
  if (look == Look::Invalid) color = QColor(0xc0, 0x39, 0x2b);
  if (look == Look::Implicit) color = m_basePalette.color(QPalette::PlaceholderText);
  if (color.isValid()) {
    for (auto role : {QPalette::Text, QPalette::ButtonText, QPalette::WindowText}) palette.setColor(role, color);
  }
  m_editor->setPalette(palette);
  m_label->setPalette(palette);
  for (QWidget *w : {static_cast<QWidget *>(m_label), m_editor}) {
    QFont font = w->font();
    font.setItalic(look == Look::Implicit);
    w->setFont(font);
  }
}

std::optional<IntList> ParamField::parseInts(const QString &text) {
  QString body = text.trimmed();
  if (body.startsWith(QLatin1Char('[')) && body.endsWith(QLatin1Char(']'))) body = body.mid(1, body.size() - 2);
  static const QRegularExpression separators(QStringLiteral("[,\\s]+"));
  IntList values;
  for (const QString &part : body.split(separators, Qt::SkipEmptyParts)) {
    bool ok = false;
    const qlonglong v = part.toLongLong(&ok);
    if (!ok) return std::nullopt;
    values.push_back(v);
  }
  return values;
}

std::optional<ParamValue> ParamField::currentValue(QString *problem) const {
  problem->clear();
  auto checked = [&](ParamValue value) {
    if (auto refusal = spec::checkParamValue(m_def, value)) *problem = QString::fromStdString(*refusal);
    return std::optional<ParamValue>(std::move(value));
  };
  if (m_int) {
    if (m_int->value() == m_int->minimum()) return std::nullopt;
    return checked(ParamValue(int64_t{m_int->value()}));
  }
  if (m_float) {
    if (m_float->value() == m_float->minimum()) return std::nullopt;
    return checked(ParamValue(m_float->value()));
  }
  if (m_bool) return ParamValue(m_bool->isChecked());
  if (m_choice) {
    if (m_choice->currentIndex() < 0) return std::nullopt;
    return ParamValue(m_choice->currentText().toStdString());
  }
  if (!m_text || m_text->text().trimmed().isEmpty()) return std::nullopt;
  if (m_def.type == ParamType::String) return ParamValue(m_text->text().toStdString());
  const std::optional<IntList> values = parseInts(m_text->text());
  const bool pair = m_def.type == ParamType::IntPair;
  if (!values || values->empty() || (pair && values->size() > 2)) {
    *problem = pair ? tr("expected one or two integers, like 3 or 3, 1") : tr("expected integers, like 1, 28, 28");
    return std::nullopt;
  }
  if (pair && values->size() == 1) return checked(ParamValue(values->front()));
  return checked(ParamValue(*values));
}

bool ParamField::sameValue(const std::optional<ParamValue> &a, const std::optional<ParamValue> &b) const {
  if (!a || !b) return !a && !b;
  // "3" and "3, 3" mean the same IntPair; 1 and 1.0 the same Float.
  auto normal = [this](const ParamValue &v) -> ParamValue {
    int64_t i = 0;
    if (m_def.type == ParamType::IntPair && asInt(v, i)) return IntList{i, i};
    if (m_def.type == ParamType::Float && asInt(v, i)) return static_cast<double>(i);
    return v;
  };
  return normal(*a) == normal(*b);
}

void ParamField::commit() {
  QString problem;
  const std::optional<ParamValue> current = currentValue(&problem);
  if (!problem.isEmpty()) {
    setLook(Look::Invalid);
    showProblem(problem);
    // The red value stays for the user to fix; the model keeps its value.
    if (!sameValue(current, m_shown)) Q_EMIT refused(problem);
    return;
  }
  showProblem({});
  if (sameValue(current, m_shown)) {
    if (m_text && !current) setLook(m_written ? Look::Written : Look::Implicit);
    return;
  }
  if (!current) {
    // Emptied or stepped below the minimum: back to the default (or "auto"). A required
    // parameter has nothing to go back to, so that is bad input rather than a reset.
    if (m_written && !hasFallback()) {
      setLook(Look::Invalid);
      showProblem(tr("required: there is no default to go back to"));
      Q_EMIT refused(tr("required: there is no default to go back to"));
      return;
    }
    if (m_written) {
      m_written = false;
      m_shown.reset();
      Q_EMIT resetRequested();
    } else {
      refresh();
    }
    return;
  }
  m_shown = current;
  m_written = true;
  m_reset->setVisible(hasFallback());
  setLook(Look::Written);
  Q_EMIT edited(*current);
}

void ParamField::onTextEdited() {
  QString problem;
  const std::optional<ParamValue> current = currentValue(&problem);
  setLook(!problem.isEmpty() ? Look::Invalid : (current || m_written) ? Look::Written : Look::Implicit);
}

}  // namespace tw::ui
