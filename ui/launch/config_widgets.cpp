#include "ui/launch/config_widgets.h"

#include "ui/launch/config_field_widget.h"
#include "ui/launch/range_spin_box.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QSpinBox>
#include <QString>
#include <QtGlobal>

#include <algorithm>
#include <limits>

namespace tw::ui {

namespace {

// RunConfig's initialisers: the defaults the table documents and a run file without the key gets.
config::RunConfig &defaults() {
  static config::RunConfig d;
  return d;
}

const config::ConfigField *fieldOf(const char *key, config::FieldKind kind) {
  const config::ConfigField *field = config::findConfigField(key);
  if (!field || field->kind != kind) {
    qWarning("Launch form: '%s' is not a config table key of the kind its widget shows", key);
    return nullptr;
  }
  return field;
}

template <typename W>
W *tagged(W *widget, const char *key) {
  widget->setProperty(kConfigKeyProperty, QString::fromLatin1(key));
  if (const config::ConfigField *field = config::findConfigField(key)) widget->setToolTip(configToolTip(*field));
  return widget;
}

}  // namespace

std::pair<int, int> configIntRange(const config::ConfigField &field) {
  constexpr double low = std::numeric_limits<int>::min(), high = std::numeric_limits<int>::max();
  return {static_cast<int>(std::clamp(field.min.value_or(low), low, high)),
          static_cast<int>(std::clamp(field.max.value_or(high), low, high))};
}

std::pair<double, double> configFloatRange(const config::ConfigField &field) {
  constexpr double big = std::numeric_limits<double>::max();
  return {field.min.value_or(-big), field.max.value_or(big)};
}

QComboBox *configComboBox(const char *key, QWidget *parent) {
  auto *box = tagged(new QComboBox(parent), key);
  const config::ConfigField *field = fieldOf(key, config::FieldKind::String);
  if (!field) return box;
  if (field->choices.empty()) qWarning("Launch form: '%s' has no choices in the config table", key);
  for (const std::string &choice : field->choices) box->addItem(QString::fromStdString(choice));
  box->setCurrentText(QString::fromStdString(field->stringRef(defaults())));
  rememberConfigDefault(box);
  return box;
}

QSpinBox *configSpinBox(const char *key, QWidget *parent) {
  auto *box = tagged(new RangeSpinBox(parent), key);
  box->setGroupSeparatorShown(true);
  const config::ConfigField *field = fieldOf(key, config::FieldKind::Int);
  if (!field) return box;
  const auto [min, max] = configIntRange(*field);
  box->setRange(min, max);
  box->setValue(static_cast<int>(std::clamp<int64_t>(field->intRef(defaults()), min, max)));
  rememberConfigDefault(box);
  return box;
}

QDoubleSpinBox *configDoubleSpinBox(const char *key, int decimals, QWidget *parent) {
  auto *box = tagged(new RangeDoubleSpinBox(parent), key);
  box->setDecimals(decimals);  // before the range: QDoubleSpinBox rounds its limits to the decimals
  const config::ConfigField *field = fieldOf(key, config::FieldKind::Float);
  if (!field) return box;
  const auto [min, max] = configFloatRange(*field);
  box->setRange(min, max);
  box->setValue(field->floatRef(defaults()));
  rememberConfigDefault(box);
  return box;
}

}  // namespace tw::ui
