#include "core/sweep/sweep_sections.h"

#include <regex>

namespace tw::sweep::detail {

namespace {

const std::vector<std::string> kTypes = {"local", "slurm", "kubernetes"};
const std::vector<std::string> kSlurmFields = {"type", "partition", "account", "cpus", "gpus", "memory", "time", "sbatch"};
const std::vector<std::string> kKubernetesFields = {"type", "image",  "namespace", "workspace_claim", "store_secret",
                                                    "cpus", "gpus",   "memory",    "time"};

// --mem as SLURM reads it: a whole number of megabytes, or with a unit K, M, G or T (Kubernetes
// gets the same amount in its binary units, kubernetes_job.cpp).
bool memoryForm(const std::string &text) {
  static const std::regex form("[1-9][0-9]*[KMGT]?", std::regex::icase);
  return std::regex_match(text, form);
}

// SLURM's --time: minutes, minutes:seconds, hours:minutes:seconds, days-hours,
// days-hours:minutes, days-hours:minutes:seconds; or UNLIMITED.
bool timeForm(const std::string &text) {
  static const std::regex form("[0-9]+(:[0-9]{1,2}){0,2}|[0-9]+-[0-9]{1,2}(:[0-9]{1,2}){0,2}|UNLIMITED|INFINITE",
                               std::regex::icase);
  return std::regex_match(text, form);
}

// A partition or account name as SLURM writes them: no spaces, no commas (a list is not one name).
bool slurmName(const std::string &text) {
  static const std::regex form("[A-Za-z0-9_.-]+");
  return std::regex_match(text, form);
}

// A Kubernetes object name (namespace, claim, secret): a DNS-1123 label.
bool kubernetesName(const std::string &text) {
  static const std::regex form("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");
  return std::regex_match(text, form);
}

bool validType(const std::string &type) { return std::find(kTypes.begin(), kTypes.end(), type) != kTypes.end(); }

// A field both cluster executors take: cpus, gpus, memory, time. False when `key` is not one.
bool readResource(const std::string &key, const YAML::Node &value, Executor &executor, Problems &problems) {
  const std::string where = "executor." + key;
  if (key == "cpus" || key == "gpus") {
    const auto v = readInt(value, where, problems);
    if (!v) return true;
    const int64_t low = key == "cpus" ? 1 : 0;
    if (*v < low || *v > 4096) problems.add(value, "key '" + where + "': expected " + std::to_string(low) + " to 4096 per trial");
    else (key == "cpus" ? executor.cpus : executor.gpus) = static_cast<int>(*v);
  } else if (key == "memory") {
    const auto v = readText(value, where, problems);
    if (v && !memoryForm(*v))
      problems.add(value, "key 'executor.memory': '" + *v + "' is not SLURM's form (megabytes, or a number with K, M, G or T: 16G)");
    else if (v) executor.memory = *v;
  } else if (key == "time") {
    const auto v = readText(value, where, problems);
    if (v && !timeForm(*v))
      problems.add(value, "key 'executor.time': '" + *v + "' is not SLURM's form (minutes, HH:MM:SS or D-HH:MM:SS; quote it)");
    else if (v) executor.time = *v;
  } else {
    return false;
  }
  return true;
}

void readSlurmField(const std::string &key, const YAML::Node &keyNode, const YAML::Node &value, Executor &executor,
                    Problems &problems) {
  const std::string where = "executor." + key;
  if (key == "partition" || key == "account") {
    const auto v = readText(value, where, problems);
    if (!v) return;
    if (!slurmName(*v)) problems.add(value, "key '" + where + "': '" + *v + "' is not a SLURM " + key + " name");
    (key == "partition" ? executor.partition : executor.account) = *v;
  } else if (key == "sbatch") {
    if (!value.IsSequence()) {
      problems.add(value, "key 'executor.sbatch': expected a list of sbatch options, e.g. [--qos=high]");
      return;
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
  } else if (!readResource(key, value, executor, problems)) {
    problems.add(keyNode, "key 'executor': unknown field '" + key + "'" + didYouMean(key, kSlurmFields) +
                              " for type slurm (fields: " + join(kSlurmFields) + ")");
  }
}

void readKubernetesField(const std::string &key, const YAML::Node &keyNode, const YAML::Node &value, Executor &executor,
                         Problems &problems) {
  const std::string where = "executor." + key;
  if (key == "image") {
    const auto v = readText(value, where, problems);
    if (v && v->find_first_of(" \t\n") != std::string::npos) problems.add(value, "key 'executor.image': '" + *v + "' is not an image reference");
    else if (v) executor.image = *v;
  } else if (key == "namespace" || key == "workspace_claim" || key == "store_secret") {
    const auto v = readText(value, where, problems);
    if (!v) return;
    if (!kubernetesName(*v))
      problems.add(value, "key '" + where + "': '" + *v + "' is not a Kubernetes name (lower-case letters, digits and '-', at most 63)");
    else (key == "namespace" ? executor.kubeNamespace : key == "workspace_claim" ? executor.workspaceClaim : executor.storeSecret) = *v;
  } else if (!readResource(key, value, executor, problems)) {
    problems.add(keyNode, "key 'executor': unknown field '" + key + "'" + didYouMean(key, kKubernetesFields) +
                              " for type kubernetes (fields: " + join(kKubernetesFields) + ")");
  }
}

}  // namespace

Executor readExecutor(const YAML::Node &node, Problems &problems) {
  Executor executor;
  if (node.IsScalar()) {
    executor.type = node.Scalar();
    if (!validType(executor.type)) problems.add(node, "key 'executor': '" + executor.type + "' is not an executor (" + join(kTypes) + ")");
    else if (executor.kubernetes()) problems.add(node, "key 'executor': kubernetes needs at least {type: kubernetes, image: ..., workspace_claim: ...}");
    return executor;
  }
  if (!node.IsMap()) {
    problems.add(node, "key 'executor': expected local, slurm or a map such as {type: slurm, partition: ..., cpus: ...}");
    return executor;
  }
  const YAML::Node type = node["type"];
  if (!type) {
    problems.add(node, "key 'executor': no 'type' (" + join(kTypes) + ")");
    return executor;
  }
  if (const auto t = readText(type, "executor.type", problems)) executor.type = *t;
  if (!validType(executor.type)) {
    problems.add(type, "key 'executor.type': '" + executor.type + "' is not an executor (" + join(kTypes) + ")");
    return executor;
  }
  for (auto it = node.begin(); it != node.end(); ++it) {
    const std::string key = it->first.Scalar();
    if (key == "type") continue;
    if (executor.type == "local")
      problems.add(it->first, "key 'executor." + key + "': the local executor plans cores itself; this is a cluster executor's field");
    else if (executor.slurm()) readSlurmField(key, it->first, it->second, executor, problems);
    else readKubernetesField(key, it->first, it->second, executor, problems);
  }
  if (executor.kubernetes()) {
    if (executor.image.empty()) problems.add(node, "key 'executor': type kubernetes needs 'image' (with torchwright on its PATH)");
    if (executor.workspaceClaim.empty())
      problems.add(node, "key 'executor': type kubernetes needs 'workspace_claim' (the PersistentVolumeClaim holding the workspace)");
  }
  return executor;
}

}  // namespace tw::sweep::detail
