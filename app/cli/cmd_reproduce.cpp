// `torchwright reproduce RUN`: trains a new run from the recorded configuration of RUN (same
// seed, same data, same model) and reports whether its metric history matches the original's.
// With --detach (Studio's Reproduce) it returns once the new run is recorded; training and the
// comparison go on in the background and end up in the new run's launcher.log and tags.

#include "app/cli/commands.h"
#include "app/cli/detach.h"
#include "app/cli/usage.h"
#include "app/cli/rank_supervisor.h"
#include "app/cli/run_ref.h"
#include "app/common/run_recording.h"

#include "core/config/run_config.h"
#include "core/config/workspace.h"
#include "tracking/workspace_store.h"
#include "tracking/history_compare.h"
#include "tracking/store.h"

#include <cstdio>
#include <cstdlib>

namespace tw::cli {

int runReproduce(const CliArgs &args, const std::string &selfPath) {
  if (args.positionals.size() != 1) return usageError("reproduce");
  const std::string workspace = args.workspace();
  auto store = tracking::Store::open(tracking::workspaceStore(workspace));
  auto original = resolveRun(*store, args.positionals[0]);
  if (!original) return 1;
  config::RunConfig config;
  try {
    config = config::parseRunConfig(original->configYaml, original->runDir + "/config.yaml");
  } catch (const config::ConfigError &e) {
    std::fprintf(stderr, "torchwright: the recorded configuration no longer loads: %s\n", e.what());
    return 1;
  }
  config.tracking.runName = original->name + "-repro";
  int64_t parameters = 0;
  const auto params = store->params(original->id);
  // Only shown in the summary: a missing or odd value is 0, not a reason to refuse.
  if (auto it = params.find("model.parameters"); it != params.end())
    parameters = std::strtoll(it->second.c_str(), nullptr, 10);
  const tracking::RunRecord run = app::recordRun(*store, config, workspace, parameters);
  store->setTag(run.id, "reproduces", original->uuid);
  std::printf("reproducing run %s (%s) as %s (%s)\n", original->uuid.substr(0, 8).c_str(), original->name.c_str(),
              run.uuid.substr(0, 8).c_str(), run.name.c_str());
  std::fflush(stdout);
  if (args.hasFlag("--detach")) {
    // SQLite connections must not cross a fork (see launch): closed here, reopened in the child.
    store.reset();
    if (!detachRunLauncher(run)) return 0;
    store = tracking::Store::open(tracking::workspaceStore(workspace));
  }
  LaunchPlan plan;
  plan.nprocPerNode = static_cast<int>(config.distributed.nprocPerNode);
  plan.workerArgs = {"--workspace", workspace, "--run", run.uuid};
  const int trained = superviseRanks(store.get(), &run, selfPath, plan);
  if (trained != 0) return trained;

  const tracking::HistoryComparison c = tracking::compareHistories(*store, original->id, run.id);
  if (original->configHash != config::configHash(config))
    std::printf("note: the configuration hash differs from the original's (recorded by another version)\n");
  if (c.identical) {
    std::printf("\nreproduced: %lld metric series, %lld points bit-identical (timing metrics not compared)\n",
                static_cast<long long>(c.seriesCompared), static_cast<long long>(c.pointsCompared));
    // Detached, stdout is launcher.log, a file buffered until exit: the verdict is written there
    // before the tag announces it, so whoever sees the tag finds the line.
    std::fflush(stdout);
    store->setTag(run.id, "reproduction", "identical");
    return 0;
  }
  std::printf("\nNOT reproduced: %s\n(different threads, hardware or library versions change floating-point "
              "rounding; compare `runs show` of both)\n", c.firstDifference.c_str());
  std::fflush(stdout);
  store->setTag(run.id, "reproduction", "differs: " + c.firstDifference);
  return 3;
}

}  // namespace tw::cli
