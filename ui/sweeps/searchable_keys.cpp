#include "ui/sweeps/searchable_keys.h"

#include "core/config/config_fields.h"
#include "core/sweep/model_fields.h"

#include <algorithm>
#include <cmath>

namespace tw::ui {

namespace {

std::string numberText(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.10g", value);
  return buffer;
}

void addConfigKeys(std::vector<SearchableKey> &keys) {
  config::RunConfig defaults;
  for (const config::ConfigField &field : config::configFields()) {
    SearchableKey key;
    key.key = field.key;
    key.doc = field.doc;
    key.section = field.section;
    key.min = field.min;
    key.max = field.max;
    switch (field.kind) {
      case config::FieldKind::Int:
        key.type = search::ParamType::Int;
        key.current = std::to_string(field.intRef(defaults));
        break;
      case config::FieldKind::Float:
        key.type = search::ParamType::Float;
        key.current = numberText(field.floatRef(defaults));
        break;
      case config::FieldKind::Bool:
        key.type = search::ParamType::Categorical;
        key.choices = {"false", "true"};
        key.current = field.boolRef(defaults) ? "true" : "false";
        break;
      case config::FieldKind::String:
        // A free string (a path, a name) has no distribution to sample from.
        if (field.choices.empty()) continue;
        key.type = search::ParamType::Categorical;
        key.choices = field.choices;
        key.current = field.stringRef(defaults);
        break;
      default:
        continue;  // thread counts and lists
    }
    keys.push_back(std::move(key));
  }
}

void addModelKeys(const std::string &modelYaml, std::vector<SearchableKey> &keys) {
  for (const sweep::ModelField &field : sweep::modelFields(modelYaml)) {
    // A block parameter may reach several registry parameters; it takes the first one's type
    // and the range every one of them allows.
    if (field.params.empty()) continue;
    const spec::ParamDef &param = *field.params.front();
    SearchableKey key;
    key.key = field.key;
    key.doc = param.doc;
    key.current = field.current;
    for (const spec::ParamDef *each : field.params) {
      if (each->min) key.min = key.min ? std::max(*key.min, *each->min) : *each->min;
      if (each->max) key.max = key.max ? std::min(*key.max, *each->max) : *each->max;
    }
    switch (param.type) {
      case spec::ParamType::Int: key.type = search::ParamType::Int; break;
      case spec::ParamType::Float: key.type = search::ParamType::Float; break;
      case spec::ParamType::Bool:
        key.type = search::ParamType::Categorical;
        key.choices = {"false", "true"};
        break;
      case spec::ParamType::String:
        if (param.choices.empty()) continue;
        key.type = search::ParamType::Categorical;
        key.choices = param.choices;
        break;
      default:
        continue;  // pairs and lists (kernel sizes, shapes)
    }
    keys.push_back(std::move(key));
  }
}

}  // namespace

std::vector<SearchableKey> searchableKeys(const std::string &modelYaml) {
  std::vector<SearchableKey> keys;
  addConfigKeys(keys);
  addModelKeys(modelYaml, keys);
  return keys;
}

std::string firstKeyToSearch(const std::vector<SearchableKey> &keys, const std::vector<std::string> &taken) {
  auto free = [&](const SearchableKey &key) { return std::find(taken.begin(), taken.end(), key.key) == taken.end(); };
  auto numeric = [](const SearchableKey &key) { return key.type != search::ParamType::Categorical; };
  // Optimiser numbers first (the learning rate leads that section), then any number, then anything.
  for (const auto &key : keys)
    if (free(key) && key.section == "optimiser" && numeric(key)) return key.key;
  for (const auto &key : keys)
    if (free(key) && numeric(key)) return key.key;
  for (const auto &key : keys)
    if (free(key)) return key.key;
  return {};
}

search::ParamSpec suggestedParam(const SearchableKey &key) {
  search::ParamSpec param;
  param.key = key.key;
  param.type = key.type;
  if (key.type == search::ParamType::Categorical) {
    param.choices = key.choices;
    return param;
  }
  const double lowest = key.min.value_or(-1e9), highest = key.max.value_or(1e9);
  double current = 0.0;
  try {
    current = std::stod(key.current);
  } catch (const std::exception &) {
    current = std::clamp(1.0, lowest, highest);
  }
  if (key.type == search::ParamType::Float) {
    if (current > 0.0) {
      param.low = std::max(lowest, current / 10.0);
      param.high = std::min(highest, current * 10.0);
      param.log = param.low > 0.0;
    } else {
      param.low = std::max(lowest, 0.0);
      param.high = std::min(highest, param.low + 1.0);
    }
  } else {
    param.low = std::max(lowest, std::floor(current / 2.0));
    param.high = std::min(highest, std::max(param.low + 1.0, current * 2.0));
    param.log = param.low > 0.0 && param.high / param.low >= 8.0;
  }
  return param;
}

std::string allowedText(const SearchableKey &key) {
  if (key.type == search::ParamType::Categorical) {
    std::string text;
    for (const auto &choice : key.choices) text += (text.empty() ? "" : ", ") + choice;
    return text;
  }
  if (key.min && key.max) return "[" + numberText(*key.min) + ", " + numberText(*key.max) + "]";
  if (key.min) return ">= " + numberText(*key.min);
  if (key.max) return "<= " + numberText(*key.max);
  return {};
}

}  // namespace tw::ui
