#pragma once
// Recording a run with everything needed to explain it: shared by the CLI (train, launch,
// reproduce) and by a worker started straight from a run file under srun, torchrun or a
// PyTorchJob, whose rank 0 records the run itself.

#include "core/config/run_config.h"
#include "tracking/store.h"

#include <cstdint>
#include <string>

namespace tw::app {

// Creates the run (resolved config, hash, seed, versions, host, hardware, environment), its
// folder and config.yaml, and its params. `modelParameters` is the analysed parameter count.
// Throws std::runtime_error, with nothing recorded, when train.init_from names no run, several,
// or a checkpoint the run does not have (init_source.h).
tracking::RunRecord recordRun(tracking::Store &store, const config::RunConfig &config, const std::string &workspace,
                              int64_t modelParameters);

// Where a recorded run keeps its files: its recorded folder, else the workspace's runs/<id>.
std::string runFolder(const std::string &workspace, const tracking::RunRecord &run);

}  // namespace tw::app
