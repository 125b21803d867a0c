#pragma once
// RUN on the command line: a run name, a full id or any unique prefix of one. Every command that
// takes a run resolves it here, so "not found" and "ambiguous" read the same everywhere.

#include "app/common/run_recording.h"
#include "tracking/store.h"

#include <optional>
#include <string>

namespace tw::cli {

// The one run `reference` names. Otherwise prints why on stderr (no such run, or the runs it
// could mean, with their ids, names and experiments) and returns nothing.
std::optional<tracking::RunRecord> resolveRun(const tracking::Store &store, const std::string &reference);

using app::runFolder;  // the run's folder (app/common/run_recording.h)

// Whether the run has its `which` checkpoint ("best", "last"); prints why not on stderr.
bool hasCheckpoint(const std::string &workspace, const tracking::RunRecord &run, const std::string &which);

}  // namespace tw::cli
