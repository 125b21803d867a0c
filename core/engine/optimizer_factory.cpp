#include "core/engine/optimizer_factory.h"

#include "core/config/optimizer_rules.h"
#include "core/config/optimizer_table.h"

#include <stdexcept>

namespace tw::engine {

namespace {

template <class Options>
std::vector<torch::optim::OptimizerParamGroup> groupsOf(const std::vector<ParameterGroup> &groups, const Options &base,
                                                        double lr) {
  std::vector<torch::optim::OptimizerParamGroup> out;
  for (const ParameterGroup &group : groups) {
    auto options = std::make_unique<Options>(base);
    options->lr(lr * group.lrFactor);
    out.emplace_back(group.params, std::move(options));
  }
  return out;
}

}  // namespace

std::unique_ptr<torch::optim::Optimizer> makeOptimizer(const std::vector<ParameterGroup> &groups,
                                                       const config::TrainOptions &t) {
  if (t.optimizer == "sgd") {
    if (const std::string problem = config::nesterovProblem(t); !problem.empty()) throw std::runtime_error(problem);
    const auto options = torch::optim::SGDOptions(t.lr)
                             .momentum(t.momentum)
                             .dampening(config::kSgdDampening)
                             .nesterov(t.nesterov)
                             .weight_decay(t.weightDecay);
    return std::make_unique<torch::optim::SGD>(groupsOf(groups, options, t.lr), options);
  }
  if (t.optimizer == "adam") {
    const auto options = torch::optim::AdamOptions(t.lr).betas({t.beta1, t.beta2}).eps(t.eps).weight_decay(t.weightDecay);
    return std::make_unique<torch::optim::Adam>(groupsOf(groups, options, t.lr), options);
  }
  if (t.optimizer == "adamw") {
    const auto options = torch::optim::AdamWOptions(t.lr).betas({t.beta1, t.beta2}).eps(t.eps).weight_decay(t.weightDecay);
    return std::make_unique<torch::optim::AdamW>(groupsOf(groups, options, t.lr), options);
  }
  if (t.optimizer == "rmsprop") {
    const auto options =
        torch::optim::RMSpropOptions(t.lr).alpha(t.alpha).eps(t.eps).momentum(t.momentum).weight_decay(t.weightDecay);
    return std::make_unique<torch::optim::RMSprop>(groupsOf(groups, options, t.lr), options);
  }
  std::string names;
  for (const std::string &name : config::optimizerNames()) names += (names.empty() ? "" : ", ") + name;
  throw std::runtime_error("unknown optimizer '" + t.optimizer + "' (expected one of " + names + ")");
}

std::unique_ptr<torch::optim::Optimizer> makeOptimizer(const std::vector<torch::Tensor> &params,
                                                       const config::TrainOptions &t) {
  return makeOptimizer(std::vector<ParameterGroup>{{1.0, params}}, t);
}

void setLearningRate(torch::optim::Optimizer &optimizer, double lr, const std::vector<double> &lrFactors) {
  auto &groups = optimizer.param_groups();
  for (size_t i = 0; i < groups.size(); ++i) groups[i].options().set_lr(i < lrFactors.size() ? lr * lrFactors[i] : lr);
}

void releaseGradients(torch::optim::Optimizer &optimizer) {
  for (auto &group : optimizer.param_groups())
    for (auto &p : group.params()) p.mutable_grad().reset();
}


}  // namespace tw::engine
