#pragma once
// The one table of losses: each with the task it fits and whether label smoothing applies. The
// config table's choices, the validator, the engine's Loss and the Launch form (through the
// config table) read it, so a loss and its rules are written once.

#include "core/config/metric_keys.h"

#include <string>
#include <vector>

namespace tw::config {

struct LossInfo {
  std::string name;
  bool classification = false;  // fits classification (and next-token); else regression
  bool labelSmoothing = false;  // train.label_smoothing applies
  std::string doc;
};

const std::vector<LossInfo> &losses();
const LossInfo *findLoss(const std::string &name);
std::vector<std::string> lossNames();

struct LossProblem {
  std::string field;    // the run-file key to blame: train.loss or train.label_smoothing
  std::string message;  // empty when the loss fits
};

// Whether `loss` fits the run's task and label smoothing: the message names the losses that
// would fit. The validator reports it before a run is recorded; the engine refuses with it.
LossProblem lossProblem(const std::string &loss, metrics::RunTask task, double labelSmoothing);

}  // namespace tw::config
