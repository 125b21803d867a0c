#include "app/cli/launch_setup.h"

#include "app/cli/run_ref.h"

#include "core/config/zip_archive_check.h"
#include "core/spec/analysis.h"
#include "core/spec/model_spec.h"
#include "core/validate/validate_run.h"

#include <cstdio>
#include <filesystem>

namespace tw::cli {

std::optional<config::RunConfig> loadCheckedConfig(const std::string &runFile, const std::vector<std::string> &overrides,
                                                   int64_t *parameters) {
  config::RunConfig config;
  try {
    config = config::loadRunConfig(runFile, overrides);
  } catch (const config::ConfigError &e) {
    std::fprintf(stderr, "torchwright: %s\n", e.what());
    return std::nullopt;
  }
  const std::string modelName = config.modelFile.empty() ? runFile + " (model)" : config.modelFile;
  spec::Analysis analysis;
  try {
    analysis = spec::analyze(spec::parseModelYaml(config.modelYaml, modelName));
  } catch (const spec::SpecError &e) {
    printDiagnostics(e.diagnostics());
    return std::nullopt;
  }
  if (!analysis.ok()) {
    printDiagnostics(analysis.diagnostics);
    return std::nullopt;
  }
  const validate::RunCheck check = validate::validateRun(config, analysis);
  if (!check.ok()) {
    std::fprintf(stderr, "%s\n", spec::formatDiagnostics(check.diagnostics).c_str());
    return std::nullopt;
  }
  if (parameters) *parameters = analysis.totalParams;
  return config;
}

void printDiagnostics(const std::vector<spec::Diagnostic> &diagnostics) {
  for (const auto &d : diagnostics) std::fprintf(stderr, "%s\n", d.format().c_str());
}

std::optional<tracking::RunRecord> findResumableRun(tracking::Store &store, const std::string &id, bool force) {
  store.failSilentRuns();
  auto run = resolveRun(store, id);
  if (!run) return std::nullopt;
  if (run->status == tracking::RunStatus::Finished) {
    std::fprintf(stderr, "torchwright: run %s is FINISHED; nothing to resume (`torchwright reproduce %s` runs it "
                 "again)\n", run->uuid.substr(0, 8).c_str(), run->uuid.substr(0, 8).c_str());
    return std::nullopt;
  }
  if (run->status == tracking::RunStatus::Running && !force) {
    std::fprintf(stderr, "torchwright: run %s is RUNNING; if its worker is gone (the machine restarted), add "
                 "--force\n", run->uuid.substr(0, 8).c_str());
    return std::nullopt;
  }
  // A checkpoint cut short is refused here, before the run reads RUNNING again: its recorded
  // ending (why it failed, how far it got) stays as it was.
  const std::string lastCheckpoint = run->runDir + "/checkpoints/last.pt";
  std::error_code ec;
  if (std::filesystem::exists(lastCheckpoint, ec)) {
    if (const std::string problem = config::zipArchiveProblem(lastCheckpoint); !problem.empty()) {
      std::fprintf(stderr, "torchwright: cannot resume run %s: its checkpoint %s %s; the run stays as it was "
                   "(a new run can start from its best checkpoint with train.init_from: run:%s@best)\n",
                   run->uuid.substr(0, 8).c_str(), lastCheckpoint.c_str(), problem.c_str(),
                   run->uuid.substr(0, 8).c_str());
      return std::nullopt;
    }
  }
  return run;
}

config::RunConfig recordedConfig(const tracking::RunRecord &run) {
  return config::parseRunConfig(run.configYaml, run.runDir + "/config.yaml");
}

}  // namespace tw::cli
