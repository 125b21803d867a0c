#pragma once
// Rules between optimiser options, in one place: the engine's optimiser factory applies them and
// every check before a run (train set-up, and any up-front validation) asks the same functions.
//
//   if (std::string problem = nesterovProblem(options.train); !problem.empty()) refuse(problem);

#include "core/config/run_config.h"

#include <string>

namespace tw::config {

// The dampening Torchwright's SGD uses. There is no train.dampening: PyTorch's Nesterov momentum
// needs dampening 0, and with one value there is no combination to get wrong.
constexpr double kSgdDampening = 0.0;

// SGD with Nesterov momentum needs momentum > 0 (and dampening 0, see above). Empty when `train`
// keeps the rule (or the optimiser is not SGD, which ignores nesterov), else the message, naming
// the keys.
std::string nesterovProblem(const TrainOptions &train);

}  // namespace tw::config
