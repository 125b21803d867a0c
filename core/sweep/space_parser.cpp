#include "core/sweep/space_parser.h"

#include <algorithm>
#include <set>

namespace tw::sweep::detail {

namespace {

const std::vector<std::string> kParamKeys = {"type", "low", "high", "log", "step", "choices", "when"};

std::vector<std::string> scalarList(const YAML::Node &node, const std::string &key, Problems &problems) {
  std::vector<std::string> out;
  if (node.IsScalar()) return {node.Scalar()};
  if (!node.IsSequence()) {
    problems.add(node, key + ": expected a value or a list of values");
    return out;
  }
  for (const YAML::Node &item : node) {
    if (item.IsScalar()) out.push_back(item.Scalar());
    else problems.add(item, key + ": every choice is a single value (a list or a map is not)");
  }
  return out;
}

void parseWhen(const YAML::Node &when, search::ParamSpec &spec, Problems &problems) {
  const std::string key = "space key '" + spec.key + "': 'when'";
  if (!when.IsMap()) {
    problems.add(when, key + ": expected a map of key: value (or a list of values)");
    return;
  }
  for (auto it = when.begin(); it != when.end(); ++it)
    spec.when.push_back({it->first.Scalar(), scalarList(it->second, key, problems)});
}

search::ParamSpec parseParam(const std::string &key, const YAML::Node &body, Problems &problems) {
  search::ParamSpec spec;
  spec.key = key;
  const std::string name = "space key '" + key + "'";
  if (body.IsSequence()) {  // shorthand: the choices of a categorical
    spec.type = search::ParamType::Categorical;
    spec.choices = scalarList(body, name, problems);
    return spec;
  }
  if (!body.IsMap()) {
    problems.add(body, name + ": expected {type: float|int|categorical, ...} or a list of choices");
    return spec;
  }
  for (auto it = body.begin(); it != body.end(); ++it) {
    const std::string field = it->first.Scalar();
    if (std::find(kParamKeys.begin(), kParamKeys.end(), field) == kParamKeys.end())
      problems.add(it->first, name + ": unknown field '" + field + "'" + didYouMean(field, kParamKeys) +
                                  " (fields: " + join(kParamKeys) + ")");
  }
  const YAML::Node type = body["type"];
  if (!type) {
    problems.add(body, name + ": needs 'type' (float, int or categorical)");
    return spec;
  }
  const std::string typeName = type.IsScalar() ? type.Scalar() : std::string();
  if (typeName == "float") spec.type = search::ParamType::Float;
  else if (typeName == "int") spec.type = search::ParamType::Int;
  else if (typeName == "categorical") spec.type = search::ParamType::Categorical;
  else {
    problems.add(type, name + ": unknown type '" + typeName + "' (float, int or categorical)");
    return spec;
  }
  const bool categorical = spec.type == search::ParamType::Categorical;
  if (categorical) {
    if (const YAML::Node choices = body["choices"]) spec.choices = scalarList(choices, name + ": 'choices'", problems);
    else problems.add(body, name + ": a categorical needs 'choices'");
    for (const char *numeric : {"low", "high", "log", "step"})
      if (body[numeric]) problems.add(body[numeric], name + ": '" + numeric + "' is for float and int, not categorical");
  } else {
    if (body["choices"]) problems.add(body["choices"], name + ": 'choices' is for categorical, not " + typeName);
    for (const char *bound : {"low", "high"}) {
      const YAML::Node node = body[bound];
      if (!node) {
        problems.add(body, name + ": " + typeName + " needs '" + bound + "'");
        continue;
      }
      if (auto v = readNumber(node, key + "." + bound, problems)) (bound[0] == 'l' ? spec.low : spec.high) = *v;
    }
    if (const YAML::Node log = body["log"])
      if (auto v = readBool(log, key + ".log", problems)) spec.log = *v;
    if (const YAML::Node step = body["step"])
      if (auto v = readNumber(step, key + ".step", problems)) spec.step = *v;
  }
  if (const YAML::Node when = body["when"]) parseWhen(when, spec, problems);
  return spec;
}

}  // namespace

search::SearchSpace parseSpace(const YAML::Node &space, KeyMarks &marks, Problems &problems) {
  search::SearchSpace out;
  if (space.IsNull() || (space.IsMap() && space.size() == 0)) {
    problems.add(space, "key 'space': the space is empty; name at least one key to search");
    return out;
  }
  if (!space.IsMap()) {
    problems.add(space, "key 'space': expected a map of key: {type, ...}");
    return out;
  }
  std::set<std::string> broken;  // parameters already reported; checkSpace would repeat them
  for (auto it = space.begin(); it != space.end(); ++it) {
    const std::string key = it->first.Scalar();
    const size_t before = problems.count();
    search::ParamSpec spec = parseParam(key, it->second, problems);
    if (problems.count() != before) broken.insert(key);
    spec.line = it->first.Mark().line + 1;
    marks[key] = it->first.Mark();
    out.params.push_back(std::move(spec));
  }
  // checkSpace names the parameter first ("'train.lr': ..."); put each message at its key.
  for (const std::string &message : search::checkSpace(out)) {
    const search::ParamSpec *owner = nullptr;
    for (const auto &p : out.params)
      if (message.rfind("'" + p.key + "': ", 0) == 0 && (!owner || p.key.size() > owner->key.size())) owner = &p;
    if (owner && broken.count(owner->key)) continue;
    if (owner) problems.add(marks[owner->key], "space key " + message);
    else problems.add(space, "key 'space': " + message);
  }
  return out;
}

}  // namespace tw::sweep::detail
