#pragma once
// A trial's run read back into the trial: the objective reported each epoch (for pruners) and,
// once the run has ended, the trial's final state and values.

#include "tracking/store.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tw::cli {

// The objective "params" is the model's parameter count (recorded with the run), not a metric.
inline constexpr const char *kParamsObjective = "params";

struct EpochReport {
  int64_t step = 0;   // the metric's step (the optimiser step at the end of the epoch)
  int64_t epoch = 0;  // counted from 1, as pruners count
  double value = 0.0;
};

// The run's points of `metric` after `afterStep`, each with the epoch it ended.
std::vector<EpochReport> newEpochReports(const tracking::Store &store, int64_t runId, const std::string &metric,
                                         int64_t afterStep);

struct TrialOutcome {
  std::string state;           // COMPLETE or FAILED; empty while the run has not ended
  std::vector<double> values;  // one per objective when COMPLETE
  std::string message;
};

// What the trial becomes now that its run has ended: FINISHED with every objective recorded is
// COMPLETE; FAILED passes its reason on; anything else says what happened.
TrialOutcome outcomeOfRun(const tracking::Store &store, const tracking::RunRecord &run,
                          const std::vector<std::string> &metrics);

}  // namespace tw::cli
