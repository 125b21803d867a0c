#pragma once
// A sampled configuration made into a trial's run, checked completely before any process starts:
// the base with the trial's parameters applied, its model analysed (shapes) and the run
// validated (rules, data, device, memory). A trial that fails here is recorded FAILED with the
// message and never starts a process.

#include "core/config/run_config.h"
#include "core/search/space.h"
#include "core/sweep/sweep_file.h"

#include <cstdint>
#include <string>

namespace tw::cli {

struct PreparedTrial {
  bool ok = false;
  std::string message;          // every problem, one a line, when !ok
  config::RunConfig config;     // the trial's resolved run
  int64_t parameters = 0;       // the model's parameter count (the "params" objective)
  bool convolutional = false;   // the thread plan's rule (core_plan.h)
  double memoryBytes = 0.0;     // the validator's estimate of one rank's memory
};

PreparedTrial prepareTrial(const sweep::SweepFile &sweep, const search::Params &params);

}  // namespace tw::cli
