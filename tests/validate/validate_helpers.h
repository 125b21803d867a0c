#pragma once
// Run configurations built in memory for the validator's tests: a small MLP on spirals (nothing
// to read from disk) unless a test says otherwise.

#include "core/config/run_config.h"
#include "core/spec/analysis.h"
#include "core/spec/model_spec.h"
#include "core/validate/validate_run.h"

#include <QString>

#include <string>
#include <vector>

inline const char *kSmallModel = "model:\n"
                                 "  nodes:\n"
                                 "    - {id: x, op: Input, shape: [2]}\n"
                                 "    - {id: h, op: Linear, out_features: 16}\n"
                                 "    - {id: y, op: Linear, out_features: 3}\n"
                                 "data: {dataset: spirals}\n";

inline tw::config::RunConfig smallRun(const std::vector<std::string> &overrides = {}) {
  return tw::config::parseRunConfig(kSmallModel, "run.yaml", overrides);
}

inline tw::spec::Analysis analysisOf(const tw::config::RunConfig &config) {
  return tw::spec::analyze(tw::spec::parseModelYaml(config.modelYaml, "model.yaml"));
}

// A machine with `gpus` GPUs of 16 GiB and 64 GiB of RAM, whatever this one has.
inline tw::validate::Machine fakeMachine(int gpus, double hostBytes = 64.0 * (1 << 30)) {
  tw::validate::Machine m;
  m.gpuCount = gpus;
  m.gpuMemoryBytes.assign(static_cast<size_t>(gpus), 16.0 * (1 << 30));
  m.hostMemoryBytes = hostBytes;
  m.gpuWhy = gpus ? "" : "no NVIDIA GPU (test machine)";
  return m;
}

inline tw::validate::RunCheck check(const tw::config::RunConfig &config, int gpus = 0) {
  tw::validate::ValidateOptions options;
  options.machine = fakeMachine(gpus);
  return tw::validate::validateRun(config, analysisOf(config), options);
}

// Every diagnostic, one per line, for QVERIFY2 messages and contains() checks.
inline QString problems(const tw::validate::RunCheck &c) {
  return QString::fromStdString(tw::spec::formatDiagnostics(c.diagnostics));
}

inline bool hasField(const tw::validate::RunCheck &c, const std::string &field) {
  for (const auto &d : c.diagnostics)
    if (d.field == field) return true;
  return false;
}
