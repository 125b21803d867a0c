#include "core/engine/optimizer_factory.h"

#include "core/config/optimizer_rules.h"

#include <stdexcept>

namespace tw::engine {

std::unique_ptr<torch::optim::Optimizer> makeOptimizer(const std::vector<torch::Tensor> &params,
                                                       const config::TrainOptions &t) {
  if (t.optimizer == "sgd") {
    if (const std::string problem = config::nesterovProblem(t); !problem.empty()) throw std::runtime_error(problem);
    return std::make_unique<torch::optim::SGD>(params, torch::optim::SGDOptions(t.lr)
                                                           .momentum(t.momentum)
                                                           .dampening(config::kSgdDampening)
                                                           .nesterov(t.nesterov)
                                                           .weight_decay(t.weightDecay));
  }
  if (t.optimizer == "adam") {
    return std::make_unique<torch::optim::Adam>(
        params, torch::optim::AdamOptions(t.lr).betas({t.beta1, t.beta2}).eps(t.eps).weight_decay(t.weightDecay));
  }
  if (t.optimizer == "adamw") {
    return std::make_unique<torch::optim::AdamW>(
        params, torch::optim::AdamWOptions(t.lr).betas({t.beta1, t.beta2}).eps(t.eps).weight_decay(t.weightDecay));
  }
  if (t.optimizer == "rmsprop") {
    return std::make_unique<torch::optim::RMSprop>(
        params,
        torch::optim::RMSpropOptions(t.lr).alpha(t.alpha).eps(t.eps).momentum(t.momentum).weight_decay(t.weightDecay));
  }
  throw std::runtime_error("unknown optimizer '" + t.optimizer + "' (expected sgd, adam, adamw or rmsprop)");
}

void setLearningRate(torch::optim::Optimizer &optimizer, double lr) {
  for (auto &group : optimizer.param_groups()) group.options().set_lr(lr);
}

void releaseGradients(torch::optim::Optimizer &optimizer) {
  for (auto &group : optimizer.param_groups())
    for (auto &p : group.params()) p.mutable_grad().reset();
}

double learningRate(const torch::optim::Optimizer &optimizer) {
  return optimizer.param_groups().front().options().get_lr();
}

}  // namespace tw::engine
