#pragma once
// Form widgets for run-file keys whose choices, ranges and initial values come from the config
// table (core/config/config_fields.cpp) and RunConfig's defaults, so the Launch form keeps no
// second list. Each widget carries its key in the property kConfigKeyProperty, which lets a test
// compare every such widget with the table.
//
//   QComboBox *optimizer = configComboBox("train.optimizer", this);   // sgd, adam, adamw, rmsprop
//   QDoubleSpinBox *lr = configDoubleSpinBox("train.lr", 6, this);    // [0, 1000], 0.001

#include "core/config/config_fields.h"

#include <utility>

class QComboBox;
class QDoubleSpinBox;
class QSpinBox;
class QWidget;

namespace tw::ui {

// The dynamic property holding a widget's run-file key ("train.lr").
inline constexpr char kConfigKeyProperty[] = "configKey";

// Each helper tags the widget with its key, shows the key's doc and range as its tooltip and
// remembers its default (config_field_widget.h).

// The key's choices, the default selected. An unknown key or one without choices gives an empty box
// (and a warning): a programming error the form test catches.
QComboBox *configComboBox(const char *key, QWidget *parent);
// The key's range as a QSpinBox can hold it (configIntRange), its default value. Number boxes are
// range_spin_box.h's: a number outside the range is refused with the range, never clamped.
QSpinBox *configSpinBox(const char *key, QWidget *parent);
// The key's range, its default value; `decimals` is the precision shown and entered.
QDoubleSpinBox *configDoubleSpinBox(const char *key, int decimals, QWidget *parent);

// An integer key's table range within int: an open or wider end becomes INT_MIN / INT_MAX.
std::pair<int, int> configIntRange(const config::ConfigField &field);
// A number key's table range as doubles: an open end becomes -/+ the largest double.
std::pair<double, double> configFloatRange(const config::ConfigField &field);

}  // namespace tw::ui
