#pragma once
// The one table of optimisers: their names, what each keeps per parameter (for the memory
// estimate) and which train.* options it reads. The config table's choices, the memory estimate
// and the optimiser factory's message read it; the factory builds each by name (LibTorch).

#include "core/config/run_config.h"

#include <string>
#include <vector>

namespace tw::config {

struct OptimizerInfo {
  std::string name;
  // Tensors of state kept per parameter tensor, for these options (momentum buffers, moments).
  int (*stateTensors)(const TrainOptions &options) = nullptr;
  std::vector<std::string> options;  // the train.* keys it reads besides lr and weight_decay
  std::string doc;
};

const std::vector<OptimizerInfo> &optimizers();
const OptimizerInfo *findOptimizer(const std::string &name);
std::vector<std::string> optimizerNames();

}  // namespace tw::config
