#pragma once
// What `train` and `launch` share before any process starts: a run file checked completely (so a
// typo never leaves a FAILED run behind), and a recorded run found for --resume.

#include "core/config/run_config.h"
#include "core/spec/diagnostic.h"
#include "tracking/store.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tw::cli {

// Loads the run file with its overrides, analyses the model and validates the run (the rules, the
// data source, the device and the memory estimate: validate::validateRun); prints what is wrong
// and returns nothing when anything is. `parameters` receives the model's parameter count.
std::optional<config::RunConfig> loadCheckedConfig(const std::string &runFile, const std::vector<std::string> &overrides,
                                                   int64_t *parameters);

// One diagnostic a line on stderr, each ending with a newline.
void printDiagnostics(const std::vector<spec::Diagnostic> &diagnostics);

// The run `id` names, if it can be resumed (not FINISHED; not RUNNING unless `force`); prints why not.
std::optional<tracking::RunRecord> findResumableRun(tracking::Store &store, const std::string &id, bool force);

// The recorded configuration of a run.
config::RunConfig recordedConfig(const tracking::RunRecord &run);

}  // namespace tw::cli
