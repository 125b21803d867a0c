#pragma once
// What `train`, `train --resume` and `reproduce` share: recording a run with everything needed
// to explain it, and supervising the worker that trains it so that the run always ends in a
// recorded state (FINISHED, FAILED with the reason, KILLED).

#include "core/config/run_config.h"
#include "tracking/store.h"

#include <cstdint>
#include <string>

namespace tw::cli {

// Creates the run (resolved config, hash, seed, versions, host, hardware, environment), its
// folder and config.yaml, and its params. `modelParameters` is the analysed parameter count.
tracking::RunRecord recordRun(tracking::Store &store, const config::RunConfig &config, const std::string &workspace,
                              int64_t modelParameters);

// Starts torchwright-worker for the run and waits; returns the CLI's exit code (0 or 1).
int superviseWorker(tracking::Store &store, const tracking::RunRecord &run, const std::string &workspace,
                    const std::string &selfPath, bool resume);

}  // namespace tw::cli
