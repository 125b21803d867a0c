#include "ui/launch/launch_settings.h"

#include "core/config/config_fields.h"
#include "core/config/run_config.h"
#include "core/spec/registry.h"
#include "ui/design/model_document.h"
#include "ui/launch/config_field_widget.h"
#include "ui/launch/config_widgets.h"
#include "ui/launch/model_source.h"
#include "ui/launch/launch_page.h"


#include <yaml-cpp/yaml.h>

namespace tw::ui {

namespace {

// "model.h1.fc.out_features" -> node "h1.fc", field "out_features" (node ids may hold dots).
bool splitModelKey(const std::string &key, std::string *node, std::string *field) {
  const std::string prefix = "model.";
  const size_t dot = key.rfind('.');
  if (key.compare(0, prefix.size(), prefix) != 0 || dot == std::string::npos || dot <= prefix.size()) return false;
  *node = key.substr(prefix.size(), dot - prefix.size());
  *field = key.substr(dot + 1);
  return true;
}

bool toParamValue(spec::ParamType type, const std::string &text, spec::ParamValue *value) {
  try {
    size_t used = 0;
    switch (type) {
      case spec::ParamType::Int: *value = static_cast<int64_t>(std::stoll(text, &used)); return used == text.size();
      case spec::ParamType::Float: *value = std::stod(text, &used); return used == text.size();
      case spec::ParamType::Bool:
        if (text != "true" && text != "false") return false;
        *value = text == "true";
        return true;
      case spec::ParamType::String: *value = text; return true;
      default: return false;
    }
  } catch (const std::exception &) {
    return false;
  }
}

}  // namespace

QString withSettings(const QString &yaml, const std::map<std::string, std::string> &settings) {
  YAML::Node root = YAML::Load(yaml.toStdString());
  for (const auto &[key, value] : settings) {
    std::vector<std::string> parts;
    for (size_t start = 0;;) {
      const size_t dot = key.find('.', start);
      parts.push_back(key.substr(start, dot - start));
      if (dot == std::string::npos) break;
      start = dot + 1;
    }
    // YAML::Node assignment rebinds; walk with fresh handles into the tree.
    std::vector<YAML::Node> path{root};
    for (size_t i = 0; i + 1 < parts.size(); ++i) path.push_back(path.back()[parts[i]]);
    path.back()[parts.back()] = YAML::Load(value);
  }
  YAML::Emitter out;
  out << root;
  QString header;
  for (const QString &line : yaml.split(QLatin1Char('\n'))) {
    if (!line.startsWith(QLatin1Char('#'))) break;
    header += line + QLatin1Char('\n');
  }
  return header + QString::fromStdString(out.c_str()) + QLatin1Char('\n');
}

QStringList LaunchPage::applySettings(const std::map<std::string, std::string> &settings) {
  m_extraSettings.clear();
  QStringList notApplied;
  // The data source first: choosing it resets the fields of other sources, which would undo
  // settings applied before it (data.categorical sorts before data.dataset). The monitor last: its
  // choices follow the task and top_k (train.top_k sorts after train.monitor).
  std::vector<std::pair<std::string, std::string>> ordered;
  if (auto it = settings.find("data.dataset"); it != settings.end()) ordered.push_back(*it);
  for (const auto &setting : settings)
    if (setting.first != "data.dataset" && setting.first != "train.monitor") ordered.push_back(setting);
  if (auto it = settings.find("train.monitor"); it != settings.end()) ordered.push_back(*it);
  for (const auto &[key, value] : ordered) {
    const QString qkey = QString::fromStdString(key), text = QString::fromStdString(value);
    std::string node, field;
    if (splitModelKey(key, &node, &field)) {
      const spec::Node *found = m_model->node(QString::fromStdString(node));
      const spec::OpDef *op = found ? spec::Registry::instance().find(found->op) : nullptr;
      const spec::ParamDef *def = op ? op->param(field) : nullptr;
      spec::ParamValue parsed;
      if (!def || !toParamValue(def->type, value, &parsed)) {
        notApplied << qkey;
        continue;
      }
      m_model->setParam(QString::fromStdString(node), QString::fromStdString(field), parsed);
      continue;
    }
    QWidget *widget = configField(qkey);
    const bool shown = widget && setConfigWidgetYaml(widget, text);
    if (shown) continue;
    if (config::findConfigField(key)) m_extraSettings[key] = value;
    else notApplied << qkey;
  }
  return notApplied;
}

QStringList LaunchPage::applyRunConfig(const QString &configYaml, QString *error) {
  config::RunConfig config;
  try {
    config = config::parseRunConfig(configYaml.toStdString(), "config.yaml");
  } catch (const std::exception &e) {
    *error = QString::fromStdString(e.what());
    return {};
  }
  const QString problem = m_model->setYaml(QString::fromStdString(config.modelYaml));
  m_modelSource->useOpenDesign();  // the run's model is now the open design
  if (!problem.isEmpty()) {
    *error = problem;
    return {};
  }
  std::map<std::string, std::string> settings = config::flattenConfig(config);
  // The model came whole; a clone gets a name of its own.
  for (auto it = settings.begin(); it != settings.end();)
    it = it->first.rfind("model.", 0) == 0 || it->first == "tracking.run_name" ? settings.erase(it) : std::next(it);
  return applySettings(settings);
}

}  // namespace tw::ui
