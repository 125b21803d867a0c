#pragma once
// train.init_from as the file a run starts from: "run:<run>[@best|@last]" through the tracking
// store (a run name or a unique prefix of its id, and that checkpoint of its folder), a file as
// written. recordRun resolves it before the run row exists, so a reference to no run, to several
// or to a missing checkpoint is refused with nothing recorded; the worker resolves it again to
// read the file.

#include "tracking/store.h"

#include <string>

namespace tw::app {

struct InitSource {
  std::string file;         // what to read; empty when init_from is empty
  std::string description;  // for people and the run's tags: "run 1a2b3c4d (baseline), best checkpoint"
};

// Throws std::runtime_error naming train.init_from and the problem.
InitSource resolveInitSource(const tracking::Store &store, const std::string &workspace, const std::string &initFrom);

}  // namespace tw::app
