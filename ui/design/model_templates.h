#pragma once
// Models to start a design from: the YAML of each, and its title in the menu.

#include <QString>
#include <QStringList>

namespace tw::ui {

QStringList modelTemplateNames();
QString modelTemplateTitle(const QString &name);  // translated
QString modelTemplateYaml(const QString &name);   // empty when unknown

}  // namespace tw::ui
