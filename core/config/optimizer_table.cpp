#include "core/config/optimizer_table.h"

namespace tw::config {

const std::vector<OptimizerInfo> &optimizers() {
  static const std::vector<OptimizerInfo> table = {
      {"sgd", [](const TrainOptions &t) { return t.momentum > 0.0 ? 1 : 0; },  // the momentum buffer
       {"train.momentum", "train.nesterov"}, "stochastic gradient descent, with momentum and Nesterov momentum"},
      {"adam", [](const TrainOptions &) { return 2; },  // first and second moments
       {"train.beta1", "train.beta2", "train.eps"}, "Adam; weight_decay adds to the gradient (L2)"},
      {"adamw", [](const TrainOptions &) { return 2; },
       {"train.beta1", "train.beta2", "train.eps"}, "AdamW: decoupled weight decay"},
      {"rmsprop", [](const TrainOptions &t) { return t.momentum > 0.0 ? 2 : 1; },  // square average (+ momentum)
       {"train.alpha", "train.eps", "train.momentum"}, "RMSprop"},
  };
  return table;
}

const OptimizerInfo *findOptimizer(const std::string &name) {
  for (const OptimizerInfo &optimizer : optimizers())
    if (optimizer.name == name) return &optimizer;
  return nullptr;
}

std::vector<std::string> optimizerNames() {
  std::vector<std::string> names;
  for (const OptimizerInfo &optimizer : optimizers()) names.push_back(optimizer.name);
  return names;
}

}  // namespace tw::config
