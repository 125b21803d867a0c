// `torchwright train`: resolve the configuration, check the model, record the run, then train it
// on this machine with distributed.nproc_per_node ranks (one by default), without restarts:
// `torchwright launch` is the supervised, restarting, multi-machine form. Everything that can be
// wrong with the input is reported before a run row exists, so a typo never leaves a FAILED run
// behind. `train --resume RUN` continues a run from its last checkpoint.

#include "app/cli/commands.h"
#include "app/cli/launch_setup.h"
#include "app/cli/rank_supervisor.h"
#include "app/cli/study_ref.h"
#include "app/cli/usage.h"
#include "app/common/run_recording.h"

#include "core/config/config_fields.h"
#include "core/config/number_text.h"
#include "core/config/workspace.h"
#include "tracking/workspace_store.h"
#include "tracking/store.h"

#include <algorithm>
#include <cstdio>

namespace tw::cli {

namespace {

LaunchPlan localPlan(const config::RunConfig &config, const std::string &workspace, const tracking::RunRecord &run) {
  LaunchPlan plan;
  plan.nprocPerNode = static_cast<int>(config.distributed.nprocPerNode);
  plan.workerArgs = {"--workspace", workspace, "--run", run.uuid};
  return plan;
}

// The --set keys a resume accepts: those that change how fast the run trains, never what it
// trains (the config table's speedOnly rows), so the resumed run still ends bit-identical.
std::string refusedResumeKey(const std::vector<std::string> &sets) {
  const std::vector<std::string> allowed = config::speedOnlyKeys();
  for (const std::string &set : sets) {
    const std::string key = set.substr(0, set.find('='));
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
      std::string list;
      for (const std::string &k : allowed) list += (list.empty() ? "" : ", ") + k;
      return "--resume continues a run with its recorded configuration; --set may change only what makes it "
             "faster, not what it trains (" + list + "), not " + key;
    }
  }
  return {};
}

int resumeRun(const CliArgs &args, const std::string &selfPath) {
  const std::vector<std::string> sets = args.all("--set");
  if (const std::string refused = refusedResumeKey(sets); !refused.empty()) return usageError("train", refused);
  const std::string workspace = args.workspace();
  auto store = tracking::Store::open(tracking::workspaceStore(workspace));
  auto run = findResumableRun(*store, args.option("--resume"), args.hasFlag("--force"));
  if (!run) return 1;
  config::RunConfig config;
  try {
    config = config::parseRunConfig(run->configYaml, run->runDir + "/config.yaml", sets);
  } catch (const std::exception &e) {
    std::fprintf(stderr, "torchwright train: %s\n", e.what());
    return 1;
  }
  std::printf("resuming run %s (%s) in experiment '%s'\n", run->uuid.c_str(), run->name.c_str(),
              run->experiment.c_str());
  std::fflush(stdout);
  LaunchPlan plan = localPlan(config, workspace, *run);
  plan.resume = true;
  for (const std::string &set : sets) plan.workerArgs.insert(plan.workerArgs.end(), {"--set", set});
  return superviseRanks(store.get(), &*run, selfPath, plan);
}

}  // namespace

int runTrain(const CliArgs &args, const std::string &selfPath) {
  if (!args.option("--resume").empty()) {
    if (!args.positionals.empty() || !args.option("--trial").empty()) {
      return usageError("train", "--resume continues a run with its recorded configuration; it takes no run file "
                                 "and no --trial");
    }
    return resumeRun(args, selfPath);
  }
  if (args.positionals.size() != 1) return usageError("train");
  int64_t parameters = 0;
  const auto config = loadCheckedConfig(args.positionals[0], args.all("--set"), &parameters);
  if (!config) return 1;

  const std::string workspace = args.workspace();
  config::ensureWorkspace(workspace);
  auto store = tracking::Store::open(tracking::workspaceStore(workspace));
  const std::string trial = args.option("--trial");
  if (!trial.empty()) {
    try {
      findTrialRef(*store, trial, nullptr);  // before the run exists, so a bad reference leaves none behind
    } catch (const std::exception &e) {
      std::fprintf(stderr, "torchwright: %s\n", e.what());
      return 1;
    }
  }
  const tracking::RunRecord run = app::recordRun(*store, *config, workspace, parameters);
  if (!trial.empty()) linkRunToTrial(*store, run, trial);
  std::printf("run %s (%s) in experiment '%s'\n", run.uuid.c_str(), run.name.c_str(), run.experiment.c_str());
  std::printf("model %s: %s parameters; workspace %s\n",
              config->modelFile.empty() ? (args.positionals[0] + " (model)").c_str() : config->modelFile.c_str(),
              config::formatNumber(double(parameters)).c_str(), workspace.c_str());
  std::fflush(stdout);
  return superviseRanks(store.get(), &run, selfPath, localPlan(*config, workspace, run));
}

}  // namespace tw::cli
