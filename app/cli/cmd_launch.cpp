// `torchwright launch`: a run on many processes and machines. On the machine with node rank 0 it
// records the run; on every machine it starts --nproc-per-node ranks and supervises them,
// restarting all ranks from the last checkpoint when one dies (up to --max-restarts). Defaults
// come from torchrun's MASTER_ADDR/MASTER_PORT and, under `srun` with one launcher per node, from
// SLURM (SLURM_NNODES, SLURM_NODEID, the first host of the node list).
//
//   torchwright launch RUN.yaml --nproc-per-node 2
//   torchwright launch RUN.yaml --nnodes 2 --node-rank 1 --master-addr 10.0.0.1 --master-port 29500
//   torchwright launch RUN.yaml --detach       (keeps training when the terminal or Studio closes)

#include "app/cli/commands.h"
#include "app/cli/detach.h"
#include "app/cli/launch_setup.h"
#include "app/cli/rank_supervisor.h"
#include "app/cli/study_ref.h"
#include "app/cli/usage.h"
#include "app/common/run_recording.h"

#include "core/config/workspace.h"
#include "core/dist/dist_env.h"
#include "tracking/workspace_store.h"
#include "tracking/store.h"

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>

namespace fs = std::filesystem;

namespace tw::cli {

namespace {

int intOption(const CliArgs &args, const std::string &name, int fallback, int min) {
  return static_cast<int>(integerOption(args, name, fallback, min, INT_MAX));
}

const char *env(const char *name) {
  const char *value = std::getenv(name);
  return value && *value ? value : nullptr;
}

// A whole number from the environment a cluster set; a malformed one names the variable.
int envInt(const char *name) {
  const std::string text = env(name);
  char *end = nullptr;
  const long value = std::strtol(text.c_str(), &end, 10);
  if (*end != '\0' || value < 0 || value > INT_MAX)
    throw std::runtime_error(std::string("environment variable ") + name + "='" + text + "': expected a whole number");
  return static_cast<int>(value);
}

// The node layout: flags first, then the environment a cluster gives a launcher.
LaunchPlan planFromArgs(const CliArgs &args, const config::RunConfig &config) {
  LaunchPlan plan;
  plan.nprocPerNode = intOption(args, "--nproc-per-node", static_cast<int>(config.distributed.nprocPerNode), 1);
  plan.maxRestarts = intOption(args, "--max-restarts", static_cast<int>(config.distributed.maxRestarts), 0);
  plan.heartbeatTimeoutS = intOption(args, "--heartbeat-timeout", plan.heartbeatTimeoutS, 1);
  int nnodes = 1, nodeRank = 0;
  std::string masterAddr = env("MASTER_ADDR") ? env("MASTER_ADDR") : "";
  // One launcher per node under srun: SLURM says how many nodes and which one this is.
  if (env("SLURM_NNODES") && env("SLURM_NODEID") && args.option("--nnodes").empty()) {
    nnodes = envInt("SLURM_NNODES");
    nodeRank = envInt("SLURM_NODEID");
    const char *list = env("SLURM_JOB_NODELIST") ? env("SLURM_JOB_NODELIST") : env("SLURM_NODELIST");
    if (masterAddr.empty() && list) {
      const auto hosts = dist::expandSlurmNodelist(list);
      if (!hosts.empty()) masterAddr = hosts.front();
    }
  }
  plan.nnodes = intOption(args, "--nnodes", nnodes, 1);
  plan.nodeRank = intOption(args, "--node-rank", nodeRank, 0);
  if (plan.nodeRank >= plan.nnodes)
    throw std::runtime_error("--node-rank " + std::to_string(plan.nodeRank) + " is not below --nnodes " +
                             std::to_string(plan.nnodes));
  plan.masterAddr = args.option("--master-addr", masterAddr.empty() ? "127.0.0.1" : masterAddr);
  const int defaultPort = env("MASTER_PORT") ? envInt("MASTER_PORT") : (plan.nnodes > 1 ? 29500 : 0);
  plan.masterPort = intOption(args, "--master-port", defaultPort, 0);
  if (plan.masterPort > 65535) throw std::runtime_error("--master-port must be a TCP port (1-65535)");
  if (plan.nnodes > 1 && plan.masterPort == 0)
    throw std::runtime_error("--master-port: several machines need a port agreed in advance (e.g. 29500)");
  return plan;
}

}  // namespace

int runLaunch(const CliArgs &args, const std::string &selfPath) {
  const bool resume = !args.option("--resume").empty();
  if (resume == (args.positionals.size() == 1)) return usageError("launch");
  if (resume && !args.option("--trial").empty())
    return usageError("launch", "--trial records a new run for a trial; --resume continues a recorded one");
  const std::string workspace = args.workspace();
  std::vector<std::string> overrides = args.all("--set");
  intOption(args, "--nproc-per-node", 1, 1);  // a bad value is bad usage, not a bad run file
  if (!args.option("--nproc-per-node").empty())
    overrides.push_back("distributed.nproc_per_node=" + args.option("--nproc-per-node"));

  std::unique_ptr<tracking::Store> store;
  std::optional<tracking::RunRecord> run;
  config::RunConfig config;
  LaunchPlan plan;
  try {
    if (resume) {
      store = tracking::Store::open(tracking::workspaceStore(workspace));
      run = findResumableRun(*store, args.option("--resume"), args.hasFlag("--force"));
      if (!run) return 1;
      config = recordedConfig(*run);
      plan = planFromArgs(args, config);
      plan.resume = true;
      if (plan.nnodes > 1) throw std::runtime_error("--resume restarts a run on this machine; for several machines "
                                                    "start each node's launcher with --resume and the same run folder");
    } else {
      int64_t parameters = 0;
      auto checked = loadCheckedConfig(args.positionals[0], overrides, &parameters);
      if (!checked) return 1;
      config = *checked;
      plan = planFromArgs(args, config);
      if (plan.nodeRank == 0) {
        config::ensureWorkspace(workspace);
        store = tracking::Store::open(tracking::workspaceStore(workspace));
        const std::string trial = args.option("--trial");
        if (!trial.empty()) findTrialRef(*store, trial, nullptr);  // before the run exists
        run = app::recordRun(*store, config, workspace, parameters);
        if (!trial.empty()) linkRunToTrial(*store, *run, trial);
      }
    }
  } catch (const UsageError &) {
    throw;
  } catch (const std::exception &e) {
    std::fprintf(stderr, "torchwright: %s\n", e.what());
    return 1;
  }
  const int world = plan.nprocPerNode * plan.nnodes;
  if (run) {
    plan.workerArgs = {"--workspace", workspace, "--run", run->uuid};
    std::printf("run %s (%s) in experiment '%s': %d rank%s on %d machine%s\n", run->uuid.c_str(), run->name.c_str(),
                run->experiment.c_str(), world, world == 1 ? "" : "s", plan.nnodes, plan.nnodes == 1 ? "" : "s");
  } else {
    // Another machine records the run; this one's ranks train from the same run file.
    plan.workerArgs = {"--config", fs::absolute(args.positionals[0]).string()};
    for (const auto &o : overrides) {
      plan.workerArgs.push_back("--set");
      plan.workerArgs.push_back(o);
    }
    std::printf("node %d of %d: %d rank%s joining %s:%d\n", plan.nodeRank, plan.nnodes, plan.nprocPerNode,
                plan.nprocPerNode == 1 ? "" : "s", plan.masterAddr.c_str(), plan.masterPort);
  }
  std::fflush(stdout);
  if (args.hasFlag("--detach")) {
    if (!run) {
      std::fprintf(stderr, "torchwright: --detach is for the machine that records the run (node rank 0)\n");
      return 2;
    }
    // SQLite connections must not cross a fork: two processes closing the same connection would
    // both clean up the WAL and can corrupt the file. Close it here, reopen in the child.
    store.reset();
    if (!detachRunLauncher(*run)) return 0;
    store = tracking::Store::open(tracking::workspaceStore(workspace));
  }
  return superviseRanks(store.get(), run ? &*run : nullptr, selfPath, plan);
}

}  // namespace tw::cli
