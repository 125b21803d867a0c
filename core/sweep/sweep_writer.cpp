#include "core/sweep/sweep_writer.h"

#include "core/config/number_text.h"

#include <yaml-cpp/yaml.h>

#include <charconv>
#include <cmath>

namespace tw::sweep {

namespace {

// Shortest text that parses back to the same double; integers keep no fraction.
std::string number(double value) { return config::shortestText(value); }

std::string integer(double value) { return std::to_string(static_cast<long long>(std::llround(value))); }

void emitParam(YAML::Emitter &out, const search::ParamSpec &param) {
  out << YAML::Key << param.key << YAML::Value << YAML::Flow << YAML::BeginMap;
  out << YAML::Key << "type" << YAML::Value << search::paramTypeName(param.type);
  if (param.type == search::ParamType::Categorical) {
    out << YAML::Key << "choices" << YAML::Value << YAML::Flow << YAML::BeginSeq;
    for (const auto &choice : param.choices) out << choice;
    out << YAML::EndSeq;
  } else {
    const bool isInt = param.type == search::ParamType::Int;
    out << YAML::Key << "low" << YAML::Value << (isInt ? integer(param.low) : number(param.low));
    out << YAML::Key << "high" << YAML::Value << (isInt ? integer(param.high) : number(param.high));
    if (param.log) out << YAML::Key << "log" << YAML::Value << true;
    if (param.step > 0.0) out << YAML::Key << "step" << YAML::Value << (isInt ? integer(param.step) : number(param.step));
  }
  if (!param.when.empty()) {
    out << YAML::Key << "when" << YAML::Value << YAML::Flow << YAML::BeginMap;
    for (const auto &condition : param.when) {
      out << YAML::Key << condition.key << YAML::Value;
      if (condition.values.size() == 1) {
        out << condition.values.front();
      } else {
        out << YAML::Flow << YAML::BeginSeq;
        for (const auto &value : condition.values) out << value;
        out << YAML::EndSeq;
      }
    }
    out << YAML::EndMap;
  }
  out << YAML::EndMap;
}

void emitObjective(YAML::Emitter &out, const Objective &objective) {
  out << YAML::Flow << YAML::BeginMap << YAML::Key << "metric" << YAML::Value << objective.metric << YAML::Key
      << "direction" << YAML::Value << search::directionName(objective.direction) << YAML::EndMap;
}

void emitOptions(YAML::Emitter &out, const std::string &type, const search::OptionValues &options,
                 const std::string *seed) {
  out << YAML::Flow << YAML::BeginMap << YAML::Key << "type" << YAML::Value << type;
  // Option values are kept as written; plain scalars let the reader type them (10, 0.5, true).
  for (const auto &[key, value] : options) out << YAML::Key << key << YAML::Value << value;
  if (seed) out << YAML::Key << "seed" << YAML::Value << *seed;
  out << YAML::EndMap;
}

}  // namespace

std::string sweepYaml(const SweepFile &sweep) {
  YAML::Emitter out;
  out << YAML::BeginMap;
  if (!sweep.studyName.empty()) out << YAML::Key << "study" << YAML::Value << sweep.studyName;
  if (!sweep.baseFile.empty()) {
    out << YAML::Key << "base" << YAML::Value << sweep.baseFile;
  } else if (!sweep.baseYaml.empty()) {
    out << YAML::Key << "base" << YAML::Value << YAML::Load(sweep.baseYaml);
  }
  out << YAML::Key << "objective" << YAML::Value;
  if (sweep.objectives.size() == 1) {
    emitObjective(out, sweep.objectives.front());
  } else {
    out << YAML::BeginSeq;
    for (const auto &objective : sweep.objectives) emitObjective(out, objective);
    out << YAML::EndSeq;
  }
  out << YAML::Key << "space" << YAML::Value << YAML::BeginMap;
  for (const auto &param : sweep.space.params) emitParam(out, param);
  out << YAML::EndMap;
  const std::string seed = std::to_string(sweep.seed);
  out << YAML::Key << "sampler" << YAML::Value;
  emitOptions(out, sweep.sampler, sweep.samplerOptions, &seed);
  out << YAML::Key << "pruner" << YAML::Value;
  emitOptions(out, sweep.pruner, sweep.prunerOptions, nullptr);
  out << YAML::Key << "budget" << YAML::Value << YAML::Flow << YAML::BeginMap;
  if (sweep.budget.trials > 0) out << YAML::Key << "trials" << YAML::Value << sweep.budget.trials;
  if (sweep.budget.minutes > 0.0) out << YAML::Key << "minutes" << YAML::Value << number(sweep.budget.minutes);
  out << YAML::EndMap;
  out << YAML::Key << "parallel" << YAML::Value;
  if (sweep.parallelAuto) out << "auto";
  else out << sweep.parallel;
  if (sweep.retries > 0) out << YAML::Key << "retries" << YAML::Value << sweep.retries;
  if (sweep.executor.cluster()) {
    const Executor &e = sweep.executor;
    out << YAML::Key << "executor" << YAML::Value << YAML::BeginMap << YAML::Key << "type" << YAML::Value << e.type;
    if (!e.partition.empty()) out << YAML::Key << "partition" << YAML::Value << e.partition;
    if (!e.account.empty()) out << YAML::Key << "account" << YAML::Value << e.account;
    out << YAML::Key << "cpus" << YAML::Value << e.cpus;
    if (e.gpus > 0) out << YAML::Key << "gpus" << YAML::Value << e.gpus;
    if (!e.memory.empty()) out << YAML::Key << "memory" << YAML::Value << e.memory;
    if (!e.time.empty()) out << YAML::Key << "time" << YAML::Value << YAML::DoubleQuoted << e.time;
    if (!e.sbatchOptions.empty()) out << YAML::Key << "sbatch" << YAML::Value << YAML::Flow << e.sbatchOptions;
    if (!e.image.empty()) out << YAML::Key << "image" << YAML::Value << e.image;
    if (!e.kubeNamespace.empty()) out << YAML::Key << "namespace" << YAML::Value << e.kubeNamespace;
    if (!e.workspaceClaim.empty()) out << YAML::Key << "workspace_claim" << YAML::Value << e.workspaceClaim;
    if (!e.storeSecret.empty()) out << YAML::Key << "store_secret" << YAML::Value << e.storeSecret;
    out << YAML::EndMap;
  }
  out << YAML::EndMap;
  return std::string(out.c_str()) + "\n";
}

}  // namespace tw::sweep
