#include "core/sweep/sweep_file.h"

#include "core/sweep/space_keys.h"
#include "core/sweep/space_parser.h"
#include "core/sweep/sweep_sections.h"
#include "core/yaml/yaml_problem.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace tw::sweep {

namespace {

const std::vector<std::string> kTopKeys = {"base",   "objective", "space",   "sampler", "pruner",
                                           "budget", "parallel",  "retries", "study",
                                           "executor"};

std::string at(const std::string &file, const yaml::Problem &p) {
  std::string out = file.empty() ? "<sweep file>" : file;
  if (p.line > 0) out += ":" + std::to_string(p.line) + ":" + std::to_string(p.column);
  return out;
}

}  // namespace

SweepFile parseSweepFile(const std::string &yamlText, const std::string &fileName,
                         const std::vector<std::string> &overrides, bool requireBase) {
  if (const yaml::Problem p = yaml::notUtf8(yamlText); !p.message.empty())
    throw config::ConfigError(at(fileName, p) + ": " + p.message);
  YAML::Node loaded;
  try {
    loaded = YAML::Load(yamlText);
  } catch (const YAML::ParserException &e) {
    const yaml::Problem p = yaml::describe(e, yamlText);
    throw config::ConfigError(at(fileName, p) + ": invalid YAML: " + p.message);
  }
  if (const yaml::Problem p = yaml::duplicateKey(loaded); !p.message.empty())
    throw config::ConfigError(at(fileName, p) + ": " + p.message);
  if (const yaml::Problem p = yaml::scalarNotUtf8(loaded); !p.message.empty())
    throw config::ConfigError(at(fileName, p) + ": " + p.message);
  detail::Problems problems(fileName);
  if (!loaded.IsMap()) {
    problems.add(loaded, "a sweep file is a map with " + detail::join(kTopKeys));
    problems.throwIfAny();
  }
  detail::applyOverrides(loaded, overrides);
  const YAML::Node &root = loaded;  // read through the const operator[], which adds no keys

  SweepFile sweep;
  sweep.sourceFile = fileName;
  sweep.text = yamlText;
  for (auto it = root.begin(); it != root.end(); ++it) {
    const std::string key = it->first.Scalar();
    if (std::find(kTopKeys.begin(), kTopKeys.end(), key) == kTopKeys.end())
      problems.add(it->first, "unknown key '" + key + "'" + detail::didYouMean(key, kTopKeys) + " (keys: " +
                                  detail::join(kTopKeys) + ")");
  }

  std::optional<config::RunConfig> base;
  bool baseBroken = false;
  if (const YAML::Node node = root["base"]; node && !node.IsNull()) {
    base = detail::readBase(node, sweep, problems);
    baseBroken = !base;
  } else if (requireBase) {
    problems.add(root, "no 'base': name the run file to search from, or give an inline run map");
    baseBroken = true;
  }

  detail::KeyMarks marks;
  const YAML::Node space = root["space"];
  if (space) sweep.space = detail::parseSpace(space, marks, problems);
  else problems.add(root, "no 'space': name at least one key to search, e.g. train.lr: {type: float, low: 1e-4, high: 0.1, log: true}");
  // Without a base the objective is an external program's (`study ask`/`tell`), and the keys are
  // its names; with one, every key must set something in the run.
  if (base) detail::checkSpaceKeys(sweep.space, marks, base->modelYaml, problems);

  if (!baseBroken) sweep.objectives = detail::readObjectives(root["objective"], root, base ? &*base : nullptr, problems);
  detail::readSampler(root["sampler"], sweep, problems);
  detail::readPruner(root["pruner"], sweep, problems);
  if (!baseBroken) detail::checkSamplerFits(root["sampler"], root, sweep, problems);

  if (const YAML::Node budget = root["budget"]; budget) sweep.budget = detail::readBudget(budget, problems);
  else if (requireBase) problems.add(root, "no 'budget': give {trials: N} and/or {minutes: M}, or the sweep never ends");
  if (const YAML::Node parallel = root["parallel"]) detail::readParallel(parallel, sweep, problems);
  if (const YAML::Node retries = root["retries"]) sweep.retries = detail::readRetries(retries, problems);
  if (const YAML::Node executor = root["executor"]) sweep.executor = detail::readExecutor(executor, problems);
  sweep.studyName = detail::readStudyName(root["study"], fileName, problems);

  problems.throwIfAny();
  return sweep;
}

SweepFile loadSweepFile(const std::string &path, const std::vector<std::string> &overrides, bool requireBase) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw config::ConfigError("cannot read sweep file '" + path + "': " + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  return parseSweepFile(text.str(), path, overrides, requireBase);
}

}  // namespace tw::sweep
