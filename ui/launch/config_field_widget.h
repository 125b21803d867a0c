#pragma once
// One Launch-form widget for any run-file key, made from its config table row (widget by kind,
// range, choices, RunConfig's default, the doc as tooltip), and the key's value read and written
// as the run file's YAML text. Each widget remembers the default it started at, so the run file
// names only what the user changed and a value a widget cannot show exactly (Adam's eps) keeps
// its default.
//
//   QWidget *gamma = configFieldWidget(*config::findConfigField("train.gamma"), this);  // QDoubleSpinBox
//   if (configWidgetChanged(gamma)) yaml += "  gamma: " + configWidgetYaml(gamma);

#include "core/config/config_fields.h"

#include <QString>

class QWidget;

namespace tw::ui {

// Int: QSpinBox; Threads: QSpinBox with 0 shown as "auto"; Float: QDoubleSpinBox; Bool: QCheckBox;
// String with choices: QComboBox; other strings and lists: QLineEdit (lists comma-separated).
QWidget *configFieldWidget(const config::ConfigField &field, QWidget *parent);

// The widget's value as YAML ("0.1", "true", "'cpu'", "[10, 20]"); empty for a widget without a
// config key.
QString configWidgetYaml(const QWidget *widget);
// Shows a YAML value ("0.1", "[10, 20]"); false when the widget cannot hold it exactly.
bool setConfigWidgetYaml(QWidget *widget, const QString &yamlValue);
// Remembers the widget's current value as the one a run file need not name.
void rememberConfigDefault(QWidget *widget);
bool configWidgetChanged(const QWidget *widget);
// Back to the remembered default (a data source's fields when another source is chosen).
void resetConfigWidget(QWidget *widget);
// The key, its doc and range, as the widget's tooltip shows them.
QString configToolTip(const config::ConfigField &field);

}  // namespace tw::ui
