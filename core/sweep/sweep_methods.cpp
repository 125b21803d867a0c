#include "core/sweep/sweep_sections.h"

#include "core/search/catalog.h"

namespace tw::sweep::detail {

namespace {

struct Method {
  std::string name;
  search::OptionValues options;
  std::map<std::string, YAML::Mark> optionMarks;
  YAML::Mark mark;  // of the name, or of the section
};

// `sampler: tpe` or `sampler: {type: tpe, seed: 1, n_startup_trials: 5}`; `seed` is the
// sampler's only key that is not an option.
Method readMethod(const YAML::Node &node, const std::string &section, const std::string &defaultName,
                  SweepFile *seedOwner, Problems &problems) {
  Method method{defaultName, {}, {}, node ? node.Mark() : YAML::Mark::null_mark()};
  if (!node || node.IsNull()) return method;
  if (node.IsScalar()) {
    method.name = node.Scalar();
    return method;
  }
  if (!node.IsMap()) {
    problems.add(node, "key '" + section + "': expected a name or {type: ..., options}");
    return method;
  }
  for (auto it = node.begin(); it != node.end(); ++it) {
    const std::string key = it->first.Scalar();
    if (key == "type") {
      if (auto name = readText(it->second, section + ".type", problems)) method.name = *name, method.mark = it->second.Mark();
    } else if (key == "seed" && seedOwner) {
      if (auto seed = readInt(it->second, section + ".seed", problems)) {
        if (*seed < 0) problems.add(it->second, "key '" + section + ".seed': must be 0 or more");
        else seedOwner->seed = static_cast<uint64_t>(*seed);
      }
    } else if (!it->second.IsScalar()) {
      problems.add(it->second, "key '" + section + "." + key + "': an option takes a single value");
    } else {
      method.options[key] = it->second.Scalar();
      method.optionMarks[key] = it->first.Mark();
    }
  }
  return method;
}

// checkOptions names the option in its first quotes ("unknown option 'x'", "option 'x': ...").
YAML::Mark optionMark(const Method &method, const std::string &message) {
  const size_t open = message.find('\'');
  const size_t close = open == std::string::npos ? open : message.find('\'', open + 1);
  if (close != std::string::npos) {
    auto found = method.optionMarks.find(message.substr(open + 1, close - open - 1));
    if (found != method.optionMarks.end()) return found->second;
  }
  return method.mark;
}

template <typename Entry>
const Entry *checkMethod(const Method &method, const std::string &section, const std::vector<Entry> &catalog,
                         Problems &problems) {
  const Entry *entry = nullptr;
  std::vector<std::string> names;
  for (const Entry &e : catalog) {
    names.push_back(e.name);
    if (e.name == method.name) entry = &e;
  }
  if (!entry) {
    problems.add(method.mark, "key '" + section + "': unknown " + section + " '" + method.name + "'" +
                                  didYouMean(method.name, names) + " (known: " + join(names) + ")");
    return nullptr;
  }
  std::vector<std::string> messages = search::checkOptions(entry->options, method.options);
  if (messages.empty() && entry->conflicts) messages = entry->conflicts(method.options);
  for (const std::string &message : messages)
    problems.add(optionMark(method, message), "key '" + section + "': " + section + " '" + method.name + "': " + message);
  return entry;
}

}  // namespace

void readSampler(const YAML::Node &node, SweepFile &sweep, Problems &problems) {
  const Method method = readMethod(node, "sampler", sweep.sampler, &sweep, problems);
  sweep.sampler = method.name;
  sweep.samplerOptions = method.options;
  checkMethod(method, "sampler", search::samplerCatalog(), problems);
}

void readPruner(const YAML::Node &node, SweepFile &sweep, Problems &problems) {
  const Method method = readMethod(node, "pruner", sweep.pruner, nullptr, problems);
  sweep.pruner = method.name;
  sweep.prunerOptions = method.options;
  checkMethod(method, "pruner", search::prunerCatalog(), problems);
}

void checkSamplerFits(const YAML::Node &node, const YAML::Node &root, const SweepFile &sweep, Problems &problems) {
  const search::SamplerEntry *entry = search::findSampler(sweep.sampler);
  if (!entry) return;  // reported by readSampler
  YAML::Node at = node && node.IsMap() && node["type"] ? node["type"] : node;
  const YAML::Mark mark = at ? at.Mark() : root.Mark();
  auto those = [](auto keep) {
    std::vector<std::string> names;
    for (const auto &e : search::samplerCatalog())
      if (keep(e)) names.push_back(e.name);
    return names.empty() ? std::string("none") : join(names);
  };
  if (sweep.objectives.size() > 1 && !entry->multiObjective)
    problems.add(mark, "key 'sampler': sampler '" + entry->name + "' optimises one objective, and this sweep has " +
                           std::to_string(sweep.objectives.size()) + "; samplers for several: " +
                           those([](const search::SamplerEntry &e) { return e.multiObjective; }));
  if (!entry->categorical) {
    for (const search::ParamSpec &p : sweep.space.params) {
      if (p.type != search::ParamType::Categorical) continue;
      problems.add(mark, "key 'sampler': sampler '" + entry->name + "' searches numbers only (float and int), and '" +
                             p.key + "' is categorical; samplers that take categoricals: " +
                             those([](const search::SamplerEntry &e) { return e.categorical; }));
      break;
    }
  }
}

}  // namespace tw::sweep::detail
