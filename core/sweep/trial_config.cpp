#include "core/sweep/sweep_file.h"

#include "core/spec/yaml_value.h"
#include "core/sweep/model_fields.h"
#include "core/sweep/trial_params.h"
#include "core/sweep/yaml_text.h"

#include <yaml-cpp/yaml.h>

namespace tw::sweep {

namespace {

std::string fileOf(const SweepFile &sweep) { return sweep.sourceFile.empty() ? "<sweep file>" : sweep.sourceFile; }

const search::ParamSpec &specOf(const SweepFile &sweep, const std::string &key) {
  const search::ParamSpec *spec = sweep.space.find(key);
  if (!spec) throw config::ConfigError(fileOf(sweep) + ": '" + key + "' is not a key of the sweep's space");
  return *spec;
}

}  // namespace

config::RunConfig trialConfig(const SweepFile &sweep, const search::Params &params) {
  if (sweep.baseYaml.empty())
    throw config::ConfigError(fileOf(sweep) + ": the sweep has no base run, so a trial has no run configuration");
  // Run-file keys go through the converter `--set` uses; model fields into the model's YAML, where
  // a block instance's parameter expands like any other.
  std::vector<std::string> overrides;
  std::vector<std::pair<std::string, std::string>> modelValues;  // key, value text
  for (const auto &[key, value] : params) {
    const std::string text = search::valueText(specOf(sweep, key), value);
    if (key.rfind("model.", 0) == 0) modelValues.emplace_back(key, text);
    else overrides.push_back(key + "=" + text);
  }
  config::RunConfig config = config::parseRunConfig(sweep.baseYaml, sweep.baseFile, overrides);
  if (modelValues.empty()) return config;

  YAML::Node model = YAML::Load(config.modelYaml);
  for (const auto &[key, text] : modelValues) {
    const size_t dot = key.rfind('.');
    const std::string node = key.substr(6, dot - 6), field = key.substr(dot + 1);
    if (dot <= 6 || !setModelField(model, node, field, text))
      throw config::ConfigError(fileOf(sweep) + ": '" + key + "': the base model has no node '" + node + "'");
  }
  config.modelYaml = detail::yamlText(model);
  config.modelFile.clear();  // the trial's model is this text, no longer the file
  return config;
}

std::map<std::string, std::string> paramsText(const SweepFile &sweep, const search::Params &params) {
  std::map<std::string, std::string> text;
  for (const auto &[key, value] : params) text[key] = search::valueText(specOf(sweep, key), value);
  return text;
}

search::Params paramsFromText(const SweepFile &sweep, const std::map<std::string, std::string> &text) {
  search::Params params;
  for (const auto &[key, value] : text) {
    const search::ParamSpec &spec = specOf(sweep, key);
    double number = 0;
    if (!search::parseValue(spec, value, &number))
      throw config::ConfigError(fileOf(sweep) + ": '" + key + "': '" + value + "' is not a value this parameter takes");
    params[key] = number;
  }
  return params;
}

spec::ParamValue paramValue(const std::string &text) {
  try {
    const YAML::Node node = YAML::Load(text);
    // Only a number or a bool is taken from YAML's reading: text it would read as a list, a map
    // or a null, or would unquote, stays as written.
    if (node.IsScalar()) {
      spec::ParamValue value = spec::detail::paramFromYaml(node);
      if (!std::holds_alternative<std::string>(value)) return value;
    }
  } catch (const YAML::Exception &) {
  }
  return text;
}

}  // namespace tw::sweep
