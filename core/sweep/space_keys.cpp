#include "core/sweep/space_keys.h"

#include "core/config/config_fields.h"
#include "core/spec/analysis_params.h"
#include "core/spec/yaml_value.h"
#include "core/sweep/model_fields.h"

#include <functional>
#include <optional>

namespace tw::sweep::detail {

namespace {

enum class Kind { Int, Float, Bool, String, List, Any };

// What a space key sets, as far as the checks need it.
struct Target {
  std::string what;  // "an int run-file key", "Linear's out_features (int)"
  Kind kind = Kind::Any;
  std::optional<double> min, max;
  std::string range;  // the bounds as a person writes them
  std::vector<std::string> choices;
  // Why a choice, as written, is not a value the target takes; "" when it is.
  std::function<std::string(const std::string &)> choiceProblem;
};

std::string boundText(double v) {
  search::ParamSpec spec;
  spec.type = search::ParamType::Float;
  return search::valueText(spec, v);
}

std::string rangeText(const std::optional<double> &min, const std::optional<double> &max) {
  if (min && max) return "[" + boundText(*min) + ", " + boundText(*max) + "]";
  if (min) return ">= " + boundText(*min);
  if (max) return "<= " + boundText(*max);
  return {};
}

// The converter `--set` uses, on a run with nothing else in it: a value it refuses is one no run
// file may hold.
std::string configValueProblem(const std::string &key, const std::string &value) {
  try {
    config::parseRunConfig("model: {}\n", "", {key + "=" + value});
    return {};
  } catch (const config::ConfigError &e) {
    const std::string message = e.what();
    const size_t expected = message.find("expected ");
    return expected == std::string::npos ? message : message.substr(expected);
  }
}

Target configTarget(const config::ConfigField &field) {
  Target t;
  t.min = field.min;
  t.max = field.max;
  t.range = config::rangeText(field);
  t.choices = field.choices;
  switch (field.kind) {
    case config::FieldKind::Int:
    case config::FieldKind::Threads: t.kind = Kind::Int; break;
    case config::FieldKind::Float: t.kind = Kind::Float; break;
    case config::FieldKind::Bool: t.kind = Kind::Bool; break;
    case config::FieldKind::String: t.kind = Kind::String; break;
    case config::FieldKind::IntList:
    case config::FieldKind::StringList: t.kind = Kind::List; break;
  }
  t.what = "the run-file key " + field.key + " (" + config::fieldKindName(field.kind) + ")";
  const std::string key = field.key;
  t.choiceProblem = [key](const std::string &choice) { return configValueProblem(key, choice); };
  return t;
}

// `what` is the registry parameter, "out_features (int)"; the caller says whose it is.
Target paramTarget(const spec::ParamDef &def) {
  Target t;
  t.min = def.min;
  t.max = def.max;
  t.range = rangeText(def.min, def.max);
  t.choices = def.choices;
  switch (def.type) {
    case spec::ParamType::Int:
    case spec::ParamType::IntPair: t.kind = Kind::Int; break;
    case spec::ParamType::Float: t.kind = Kind::Float; break;
    case spec::ParamType::Bool: t.kind = Kind::Bool; break;
    case spec::ParamType::String: t.kind = Kind::String; break;
    case spec::ParamType::IntList: t.kind = Kind::List; break;
  }
  t.what = def.name + " (" + spec::paramTypeName(def.type) + ")";
  t.choiceProblem = [&def](const std::string &choice) -> std::string {
    spec::ParamValue converted;
    try {
      const auto problem = spec::detail::convertParam(def, spec::detail::paramFromYaml(YAML::Load(choice)), converted);
      return problem ? *problem : std::string();
    } catch (const YAML::Exception &) {
      return "not a value a model file can hold";
    }
  };
  return t;
}

// A block parameter that no registry parameter reads: its default says what it holds.
Target defaultTarget(const ModelField &field) {
  Target t;
  t.what = "block " + field.block + "'s parameter " + field.field;
  if (field.current.empty()) return t;
  spec::ParamValue value;
  try {
    value = spec::detail::paramFromYaml(YAML::Load(field.current));
  } catch (const YAML::Exception &) {
    return t;
  }
  if (std::holds_alternative<int64_t>(value)) t.kind = Kind::Int;
  else if (std::holds_alternative<double>(value)) t.kind = Kind::Float;
  else if (std::holds_alternative<bool>(value)) t.kind = Kind::Bool;
  return t;
}

void checkAgainst(const search::ParamSpec &p, const Target &t, const YAML::Mark &mark, Problems &problems) {
  const std::string name = "space key '" + p.key + "'";
  if (p.type == search::ParamType::Categorical) {
    if (!t.choiceProblem) return;
    for (const std::string &choice : p.choices)
      if (const std::string problem = t.choiceProblem(choice); !problem.empty())
        problems.add(mark, name + ": choice '" + choice + "' is not allowed for " + t.what + ": " + problem);
    return;
  }
  const std::string type = search::paramTypeName(p.type);
  switch (t.kind) {
    case Kind::Any:
    case Kind::Float: break;
    case Kind::Int:
      if (p.type == search::ParamType::Float) {
        problems.add(mark, name + ": a float parameter cannot set " + t.what + "; use type int or categorical");
        return;
      }
      break;
    case Kind::Bool:
      problems.add(mark, name + ": " + t.what + " takes true or false; use {type: categorical, choices: [true, false]}");
      return;
    case Kind::String:
      problems.add(mark, name + ": " + t.what + " takes text; use a categorical" +
                             (t.choices.empty() ? std::string() : " of " + join(t.choices)));
      return;
    case Kind::List:
      problems.add(mark, name + ": " + t.what + " is a list; use a categorical whose choices are lists written as text "
                                                "(\"30,60\")");
      return;
  }
  if (t.min && p.low < *t.min)
    problems.add(mark, name + ": low " + search::valueText(p, p.low) + " is outside what " + t.what + " allows (" +
                           t.range + ")");
  if (t.max && p.high > *t.max)
    problems.add(mark, name + ": high " + search::valueText(p, p.high) + " is outside what " + t.what + " allows (" +
                           t.range + ")");
}

std::vector<std::string> knownKeys(const std::vector<ModelField> &fields) {
  std::vector<std::string> keys;
  for (const auto &field : config::configFields()) keys.push_back(field.key);
  for (const auto &field : fields) keys.push_back(field.key);
  return keys;
}

}  // namespace

void checkSpaceKeys(const search::SearchSpace &space, const KeyMarks &marks, const std::string &modelYaml,
                    Problems &problems) {
  const std::vector<ModelField> fields = modelFields(modelYaml);
  for (const search::ParamSpec &p : space.params) {
    const auto found = marks.find(p.key);
    const YAML::Mark mark = found == marks.end() ? YAML::Mark::null_mark() : found->second;
    const std::string name = "space key '" + p.key + "'";
    if (p.key.rfind("model.", 0) == 0) {
      if (const std::string problem = modelFieldProblem(fields, modelYaml, p.key); !problem.empty()) {
        problems.add(mark, name + ": " + problem);
        continue;
      }
      for (const ModelField &field : fields) {
        if (field.key != p.key) continue;
        if (field.params.empty()) checkAgainst(p, defaultTarget(field), mark, problems);
        for (const spec::ParamDef *def : field.params) {
          Target t = paramTarget(*def);
          t.what = field.block.empty() ? field.op + "'s " + t.what
                                       : "block " + field.block + "'s " + field.field + ", which sets " + t.what;
          checkAgainst(p, t, mark, problems);
        }
      }
      continue;
    }
    const config::ConfigField *field = config::findConfigField(p.key);
    if (!field) {
      problems.add(mark, name + ": not a run-file key (section.key, as in the config table) nor a model field "
                                "(model.<node id>.<field>)" + didYouMean(p.key, knownKeys(fields)));
      continue;
    }
    checkAgainst(p, configTarget(*field), mark, problems);
  }
}

}  // namespace tw::sweep::detail
