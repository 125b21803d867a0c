// `torchwright train`: resolve the configuration, check the model, record the run, then hand it
// to torchwright-worker. Everything that can be wrong with the input is reported before a run
// row exists, so a typo never leaves a FAILED run behind. `train --resume RUN` continues a run
// from its last checkpoint.

#include "app/cli/commands.h"
#include "app/cli/run_launch.h"

#include "core/config/run_config.h"
#include "core/config/workspace.h"
#include "core/spec/analysis.h"
#include "core/spec/model_spec.h"
#include "tracking/store.h"

#include <cstdio>

namespace tw::cli {

namespace {

int resumeRun(const CliArgs &args, const std::string &selfPath) {
  const std::string id = args.option("--resume");
  const std::string workspace = args.workspace();
  auto store = tracking::Store::open(config::trackingDbPath(workspace));
  auto run = store->findRun(id);
  if (!run) {
    std::fprintf(stderr, "torchwright: no run '%s' in %s (give an id prefix or a run name)\n", id.c_str(),
                 store->path().c_str());
    return 1;
  }
  if (run->status == tracking::RunStatus::Finished) {
    std::fprintf(stderr, "torchwright: run %s is FINISHED; nothing to resume (`torchwright reproduce %s` runs it "
                 "again)\n", run->uuid.substr(0, 8).c_str(), run->uuid.substr(0, 8).c_str());
    return 1;
  }
  if (run->status == tracking::RunStatus::Running && !args.hasFlag("--force")) {
    std::fprintf(stderr, "torchwright: run %s is RUNNING; if its worker is gone (the machine restarted), add "
                 "--force\n", run->uuid.substr(0, 8).c_str());
    return 1;
  }
  std::printf("resuming run %s (%s) in experiment '%s'\n", run->uuid.c_str(), run->name.c_str(),
              run->experiment.c_str());
  std::fflush(stdout);
  return superviseWorker(*store, *run, workspace, selfPath, /*resume=*/true);
}

}  // namespace

int runTrain(const CliArgs &args, const std::string &selfPath) {
  if (!args.option("--resume").empty()) {
    if (!args.positionals.empty() || !args.all("--set").empty()) {
      std::fprintf(stderr, "torchwright: --resume continues a run with its recorded configuration; it takes no run "
                   "file and no --set\n");
      return 2;
    }
    return resumeRun(args, selfPath);
  }
  if (args.positionals.size() != 1) {
    std::fprintf(stderr, "usage: torchwright train RUN.yaml [--set key=value ...] [--workspace DIR]\n"
                         "       torchwright train --resume RUN [--workspace DIR]\n");
    return 2;
  }
  const std::string runFile = args.positionals[0];
  config::RunConfig config;
  try {
    config = config::loadRunConfig(runFile, args.all("--set"));
  } catch (const config::ConfigError &e) {
    std::fprintf(stderr, "torchwright: %s\n", e.what());
    return 1;
  }
  const std::string modelName = config.modelFile.empty() ? runFile + " (model)" : config.modelFile;
  spec::Analysis analysis;
  try {
    analysis = spec::analyze(spec::parseModelYaml(config.modelYaml, modelName));
  } catch (const spec::SpecError &e) {
    std::fprintf(stderr, "%s", spec::formatDiagnostics(e.diagnostics()).c_str());
    return 1;
  }
  if (!analysis.ok()) {
    std::fprintf(stderr, "%s", spec::formatDiagnostics(analysis.diagnostics).c_str());
    return 1;
  }

  const std::string workspace = args.workspace();
  config::ensureWorkspace(workspace);
  auto store = tracking::Store::open(config::trackingDbPath(workspace));
  const tracking::RunRecord run = recordRun(*store, config, workspace, analysis.totalParams);
  std::printf("run %s (%s) in experiment '%s'\n", run.uuid.c_str(), run.name.c_str(), run.experiment.c_str());
  std::printf("model %s: %lld parameters; workspace %s\n", modelName.c_str(),
              static_cast<long long>(analysis.totalParams), workspace.c_str());
  std::fflush(stdout);
  return superviseWorker(*store, run, workspace, selfPath, /*resume=*/false);
}

}  // namespace tw::cli
