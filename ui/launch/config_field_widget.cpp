#include "ui/launch/config_field_widget.h"

#include "ui/launch/config_widgets.h"
#include "ui/launch/range_spin_box.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QSpinBox>
#include <QStringList>

#include <yaml-cpp/yaml.h>

#include <cmath>

namespace tw::ui {

namespace {

constexpr char kDefaultProperty[] = "configDefault";

config::RunConfig &defaults() {
  static config::RunConfig d;
  return d;
}

const config::ConfigField *fieldOf(const QWidget *widget) {
  return config::findConfigField(widget->property(kConfigKeyProperty).toString().toStdString());
}

QString quoted(const QString &text) {
  QString escaped = text;
  escaped.replace(QLatin1Char('\''), QStringLiteral("''"));
  return QLatin1Char('\'') + escaped + QLatin1Char('\'');
}

// The fewest decimals (at least 4, at most 10) that show the key's lower bound and default
// exactly: 1e-8 for Adam's eps must not round to 0.
int decimalsFor(const config::ConfigField &field) {
  const double values[] = {field.min.value_or(0.0), field.floatRef(defaults())};
  for (int decimals = 4; decimals < 10; ++decimals) {
    const double scale = std::pow(10.0, decimals);
    bool exact = true;
    for (double value : values) exact = exact && std::fabs(std::round(value * scale) / scale - value) <= 1e-12 * std::fabs(value);
    if (exact) return decimals;
  }
  return 10;
}

QString listText(const config::ConfigField &field) {
  QStringList items;
  if (field.kind == config::FieldKind::IntList)
    for (int64_t value : field.intListRef(defaults())) items << QString::number(value);
  else
    for (const std::string &value : field.stringListRef(defaults())) items << QString::fromStdString(value);
  return items.join(QStringLiteral(", "));
}

}  // namespace

// The key as the run file spells it, then what it does: the form's label is a person's word.
QString configToolTip(const config::ConfigField &field) {
  const std::string range = config::rangeText(field);
  return QString::fromStdString(field.key + "\n" + (range.empty() ? field.doc : field.doc + " " + range));
}

QWidget *configFieldWidget(const config::ConfigField &field, QWidget *parent) {
  const QByteArray key = QByteArray::fromStdString(field.key);
  QWidget *widget = nullptr;
  switch (field.kind) {
    case config::FieldKind::Int: widget = configSpinBox(key.constData(), parent); break;
    case config::FieldKind::Float: widget = configDoubleSpinBox(key.constData(), decimalsFor(field), parent); break;
    case config::FieldKind::Threads: {
      auto *box = new RangeSpinBox(parent);
      const auto [min, max] = configIntRange(field);
      box->setRange(min, max);
      box->setValue(static_cast<int>(field.intRef(defaults())));
      box->setSpecialValueText(QCoreApplication::translate("tw::ui::ConfigFieldWidget", "auto"));
      widget = box;
      break;
    }
    case config::FieldKind::Bool: {
      auto *box = new QCheckBox(parent);
      box->setChecked(field.boolRef(defaults()));
      widget = box;
      break;
    }
    case config::FieldKind::String:
      if (!field.choices.empty()) {
        widget = configComboBox(key.constData(), parent);
      } else {
        widget = new QLineEdit(QString::fromStdString(field.stringRef(defaults())), parent);
      }
      break;
    case config::FieldKind::IntList:
    case config::FieldKind::StringList: {
      auto *edit = new QLineEdit(listText(field), parent);
      edit->setPlaceholderText(QCoreApplication::translate("tw::ui::ConfigFieldWidget", "comma-separated"));
      widget = edit;
      break;
    }
  }
  widget->setProperty(kConfigKeyProperty, QString::fromStdString(field.key));
  widget->setToolTip(configToolTip(field));
  rememberConfigDefault(widget);
  return widget;
}

QString configWidgetYaml(const QWidget *widget) {
  const config::ConfigField *field = fieldOf(widget);
  if (!field) return {};
  if (auto *box = qobject_cast<const QComboBox *>(widget))
    return field->choices.empty() ? quoted(box->currentText().trimmed()) : box->currentText();
  if (auto *box = qobject_cast<const QSpinBox *>(widget)) return QString::number(box->value());
  if (auto *box = qobject_cast<const QDoubleSpinBox *>(widget)) return QString::number(box->value(), 'g', 12);
  if (auto *box = qobject_cast<const QCheckBox *>(widget))
    return box->isChecked() ? QStringLiteral("true") : QStringLiteral("false");
  if (auto *edit = qobject_cast<const QLineEdit *>(widget)) {
    if (field->kind != config::FieldKind::IntList && field->kind != config::FieldKind::StringList)
      return quoted(edit->text().trimmed());
    QStringList items;
    for (const QString &item : edit->text().split(QLatin1Char(','), Qt::SkipEmptyParts))
      if (!item.trimmed().isEmpty())
        items << (field->kind == config::FieldKind::IntList ? item.trimmed() : quoted(item.trimmed()));
    return QLatin1Char('[') + items.join(QStringLiteral(", ")) + QLatin1Char(']');
  }
  return {};
}

bool setConfigWidgetYaml(QWidget *widget, const QString &yamlValue) {
  QString text = yamlValue;
  try {
    // A list arrives as YAML ("[10, 20]") and is shown comma-separated; a quoted scalar unquoted.
    const YAML::Node node = YAML::Load(yamlValue.toStdString());
    if (node.IsSequence()) {
      QStringList items;
      for (const YAML::Node &item : node) items << QString::fromStdString(item.as<std::string>());
      text = items.join(QStringLiteral(", "));
    } else if (node.IsScalar()) {
      text = QString::fromStdString(node.Scalar());
    }
  } catch (const YAML::Exception &) {
    // not YAML: shown as written
  }
  if (auto *box = qobject_cast<QComboBox *>(widget)) {
    if (box->isEditable()) {
      box->setCurrentText(text);
      return true;
    }
    const int index = box->findText(text);
    if (index >= 0) box->setCurrentIndex(index);
    return index >= 0;
  }
  if (auto *box = qobject_cast<QSpinBox *>(widget)) {
    bool ok = false;
    const int number = text == QLatin1String("auto") ? 0 : text.toInt(&ok);
    ok = ok || text == QLatin1String("auto");
    if (ok) box->setValue(number);
    return ok && box->value() == number;
  }
  if (auto *box = qobject_cast<QDoubleSpinBox *>(widget)) {
    bool ok = false;
    const double number = text.toDouble(&ok);
    // The box rounds to its decimals; then the caller keeps the exact value elsewhere.
    if (ok) box->setValue(number);
    return ok && box->value() == number;
  }
  if (auto *box = qobject_cast<QCheckBox *>(widget)) {
    if (text != QLatin1String("true") && text != QLatin1String("false")) return false;
    box->setChecked(text == QLatin1String("true"));
    return true;
  }
  if (auto *edit = qobject_cast<QLineEdit *>(widget)) {
    edit->setText(text);
    return true;
  }
  return false;
}

void rememberConfigDefault(QWidget *widget) { widget->setProperty(kDefaultProperty, configWidgetYaml(widget)); }

bool configWidgetChanged(const QWidget *widget) {
  return configWidgetYaml(widget) != widget->property(kDefaultProperty).toString();
}

void resetConfigWidget(QWidget *widget) {
  const QString value = widget->property(kDefaultProperty).toString();
  if (auto *box = qobject_cast<QComboBox *>(widget); box && box->isEditable()) {
    box->clear();  // an editable box's items came from the old source (a CSV table's columns)
  }
  setConfigWidgetYaml(widget, value);
}

}  // namespace tw::ui
