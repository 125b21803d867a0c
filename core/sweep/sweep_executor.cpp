#include "core/sweep/sweep_sections.h"

#include <regex>

namespace tw::sweep::detail {

namespace {

const std::vector<std::string> kSlurmFields = {"type", "partition", "account", "cpus", "gpus", "memory", "time", "sbatch"};

// SLURM's --mem: a whole number of megabytes, or with a unit K, M, G or T.
bool slurmMemory(const std::string &text) {
  static const std::regex form("[1-9][0-9]*[KMGT]?", std::regex::icase);
  return std::regex_match(text, form);
}

// SLURM's --time: minutes, minutes:seconds, hours:minutes:seconds, days-hours,
// days-hours:minutes, days-hours:minutes:seconds; or UNLIMITED.
bool slurmTime(const std::string &text) {
  static const std::regex form("[0-9]+(:[0-9]{1,2}){0,2}|[0-9]+-[0-9]{1,2}(:[0-9]{1,2}){0,2}|UNLIMITED|INFINITE",
                               std::regex::icase);
  return std::regex_match(text, form);
}

// A partition or account name as SLURM writes them: no spaces, no commas (a list is not one name).
bool slurmName(const std::string &text) {
  static const std::regex form("[A-Za-z0-9_.-]+");
  return std::regex_match(text, form);
}

}  // namespace

Executor readExecutor(const YAML::Node &node, Problems &problems) {
  Executor executor;
  if (node.IsScalar()) {
    executor.type = node.Scalar();
    if (executor.type != "local" && executor.type != "slurm")
      problems.add(node, "key 'executor': '" + executor.type + "' is not an executor (local, slurm)");
    return executor;
  }
  if (!node.IsMap()) {
    problems.add(node, "key 'executor': expected local, slurm or {type: slurm, partition: ..., cpus: ..., ...}");
    return executor;
  }
  const YAML::Node type = node["type"];
  if (!type) {
    problems.add(node, "key 'executor': no 'type' (local or slurm)");
    return executor;
  }
  if (const auto t = readText(type, "executor.type", problems)) executor.type = *t;
  if (executor.type != "local" && executor.type != "slurm") {
    problems.add(type, "key 'executor.type': '" + executor.type + "' is not an executor (local, slurm)");
    return executor;
  }
  for (auto it = node.begin(); it != node.end(); ++it) {
    const std::string key = it->first.Scalar();
    const YAML::Node &value = it->second;
    const std::string where = "executor." + key;
    if (key == "type") continue;
    if (executor.type == "local") {
      problems.add(it->first, "key '" + where + "': the local executor plans cores itself; this is a slurm executor's field");
      continue;
    }
    if (key == "partition" || key == "account") {
      const auto v = readText(value, where, problems);
      if (!v) continue;
      if (!slurmName(*v)) problems.add(value, "key '" + where + "': '" + *v + "' is not a SLURM " + key + " name");
      (key == "partition" ? executor.partition : executor.account) = *v;
    } else if (key == "cpus" || key == "gpus") {
      const auto v = readInt(value, where, problems);
      if (!v) continue;
      const int64_t low = key == "cpus" ? 1 : 0;
      if (*v < low || *v > 4096) problems.add(value, "key '" + where + "': expected " + std::to_string(low) + " to 4096 per trial");
      else (key == "cpus" ? executor.cpus : executor.gpus) = static_cast<int>(*v);
    } else if (key == "memory") {
      const auto v = readText(value, where, problems);
      if (v && !slurmMemory(*v))
        problems.add(value, "key 'executor.memory': '" + *v + "' is not SLURM's form (megabytes, or a number with K, M, G or T: 16G)");
      else if (v) executor.memory = *v;
    } else if (key == "time") {
      const auto v = readText(value, where, problems);
      if (v && !slurmTime(*v))
        problems.add(value, "key 'executor.time': '" + *v + "' is not SLURM's form (minutes, HH:MM:SS or D-HH:MM:SS; quote it)");
      else if (v) executor.time = *v;
    } else if (key == "sbatch") {
      if (!value.IsSequence()) {
        problems.add(value, "key 'executor.sbatch': expected a list of sbatch options, e.g. [--qos=high]");
        continue;
      }
      for (const auto &option : value) {
        const auto v = readText(option, "executor.sbatch", problems);
        if (!v) continue;
        // The driver owns what ties a job to its trial: the script, its output and its name.
        static const std::regex owned("--(wrap|output|error|job-name|parsable|array)(=.*)?|-[oeJ].*");
        if (v->rfind("-", 0) != 0) problems.add(option, "key 'executor.sbatch': '" + *v + "' is not an option (write --name=value)");
        else if (std::regex_match(*v, owned)) problems.add(option, "key 'executor.sbatch': '" + *v + "' is set by the sweep driver for each trial");
        else executor.sbatchOptions.push_back(*v);
      }
    } else {
      problems.add(it->first, "key 'executor': unknown field '" + key + "'" + didYouMean(key, kSlurmFields) +
                                  " (fields: " + join(kSlurmFields) + ")");
    }
  }
  return executor;
}

}  // namespace tw::sweep::detail
