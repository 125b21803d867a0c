#include "core/sweep/sweep_sections.h"

#include "core/spec/names.h"

#include <filesystem>

namespace tw::sweep::detail {

Budget readBudget(const YAML::Node &node, Problems &problems) {
  Budget budget;
  if (!node.IsMap()) {
    problems.add(node, "key 'budget': expected {trials: N, minutes: M} (either or both)");
    return budget;
  }
  bool valid = true;
  for (auto it = node.begin(); it != node.end(); ++it) {
    const std::string key = it->first.Scalar();
    if (key == "trials") {
      const auto v = readInt(it->second, "budget.trials", problems);
      valid = valid && v;
      if (v && *v < 0) problems.add(it->second, "key 'budget.trials': must be 0 or more"), valid = false;
      if (v && *v > 1000000) problems.add(it->second, "key 'budget.trials': at most 1000000"), valid = false;
      if (v) budget.trials = static_cast<int>(*v);
    } else if (key == "minutes") {
      const auto v = readNumber(it->second, "budget.minutes", problems);
      valid = valid && v;
      if (v && *v < 0) problems.add(it->second, "key 'budget.minutes': must be 0 or more"), valid = false;
      if (v) budget.minutes = *v;
    } else {
      problems.add(it->first, "key 'budget': unknown field '" + key + "' (fields: trials, minutes)");
    }
  }
  if (valid && budget.trials <= 0 && budget.minutes <= 0)
    problems.add(node, "key 'budget': a budget of zero runs no trial; give trials or minutes (or both) above 0");
  return budget;
}

void readParallel(const YAML::Node &node, SweepFile &sweep, Problems &problems) {
  if (node.IsScalar() && node.Scalar() == "auto") {
    sweep.parallelAuto = true;
    sweep.parallel = 1;
    return;
  }
  if (!node.IsScalar()) {
    problems.add(node, "key 'parallel': expected a number of trials at a time, or auto");
    return;
  }
  const auto v = readInt(node, "parallel", problems);
  if (!v) return;
  if (*v < 1 || *v > 1024) problems.add(node, "key 'parallel': expected 1 to 1024 trials at a time, or auto");
  else sweep.parallel = static_cast<int>(*v), sweep.parallelAuto = false;
}

int readRetries(const YAML::Node &node, Problems &problems) {
  const auto v = readInt(node, "retries", problems);
  if (!v) return 0;
  if (*v < 0 || *v > 100) {
    problems.add(node, "key 'retries': expected 0 to 100");
    return 0;
  }
  return static_cast<int>(*v);
}

std::string readStudyName(const YAML::Node &node, const std::string &fileName, Problems &problems) {
  if (node) {
    const auto name = readText(node, "study", problems);
    if (!name) return {};
    if (const std::string problem = spec::portableNameProblem("study name", *name); !problem.empty())
      problems.add(node, "key 'study': " + problem);
    return *name;
  }
  // The file's stem, without the `.sweep` of `name.sweep.yaml`.
  std::string stem = fileName.empty() ? std::string("sweep") : std::filesystem::path(fileName).stem().string();
  const std::string suffix = ".sweep";
  if (stem.size() > suffix.size() && stem.compare(stem.size() - suffix.size(), suffix.size(), suffix) == 0)
    stem.erase(stem.size() - suffix.size());
  if (const std::string problem = spec::portableNameProblem("study name", stem); !problem.empty())
    problems.addFileLevel("the study is named after the file by default, but " + problem + "; set 'study: <name>'");
  return stem;
}

}  // namespace tw::sweep::detail
