#pragma once
// `torchwright launch` (and `train`, which is a launch on one machine without restarts): starts
// the ranks of a run on this machine as torchwright-worker processes with torchrun's environment
// contract and its share of the cores each, and supervises them. When a rank dies or stops
// answering, the others are stopped within a bounded time (SIGTERM, then SIGKILL), and all are
// restarted from the last checkpoint, up to maxRestarts; restarts and their causes are recorded
// on the run. The run always ends in a recorded state: FINISHED, KILLED or FAILED with the reason.

#include "tracking/store.h"

#include <string>
#include <vector>

namespace tw::cli {

// Silence allowed a rank that has not sent its first heartbeat (loading LibTorch, initialising
// CUDA), whatever the heartbeat timeout.
constexpr int kStartupGraceS = 60;

struct LaunchPlan {
  int nprocPerNode = 1;
  int nnodes = 1;
  int nodeRank = 0;
  std::string masterAddr = "127.0.0.1";  // loopback: a single-machine run listens on no network
  int masterPort = 0;                    // 0: a free port, reserved anew for every attempt
  int maxRestarts = 0;
  int heartbeatTimeoutS = 60;            // a rank silent this long is declared hung (a starting one: 60 s at least)
  int stopGraceS = 5;                    // after SIGTERM, before SIGKILL
  bool resume = false;                   // the first attempt already continues from the checkpoint
  // How each rank finds its run: {"--workspace", W, "--run", ID} on the node that recorded it,
  // {"--config", FILE, "--set", ...} on the other nodes.
  std::vector<std::string> workerArgs;
};

// The worker that sits beside the running executable (build/bin/torchwright-worker).
std::string workerPathBeside(const std::string &selfPath);
// This program's path, also when the file was replaced while it runs.
std::string selfExecutable(const std::string &selfPath);

// Runs the plan to its end. `store` and `run` are null on nodes other than the one that recorded
// the run (only that node writes to the tracking database). Returns the CLI's exit code: 0 when
// the run finished or was stopped on request, 1 when it failed.
int superviseRanks(tracking::Store *store, const tracking::RunRecord *run, const std::string &selfPath,
                   const LaunchPlan &plan);

}  // namespace tw::cli
