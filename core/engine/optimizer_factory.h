#pragma once
// The run's optimiser from its typed options. Engine-internal (includes LibTorch).

#include "core/config/run_config.h"
#include "core/engine/parameter_group.h"

#include <torch/torch.h>

#include <memory>
#include <vector>

namespace tw::engine {

// sgd (momentum, nesterov), adam, adamw, rmsprop; all with weight_decay. One parameter group per
// ParameterGroup, in order, its rate train.lr x its factor, weight decay the same for all. Throws
// std::runtime_error naming the option when a combination is invalid (config::nesterovProblem).
std::unique_ptr<torch::optim::Optimizer> makeOptimizer(const std::vector<ParameterGroup> &groups,
                                                       const config::TrainOptions &options);
// Every parameter in one group of factor 1.
std::unique_ptr<torch::optim::Optimizer> makeOptimizer(const std::vector<torch::Tensor> &params,
                                                       const config::TrainOptions &options);

// Sets the rate of every parameter group: lr x the group's factor (`lrFactors`, one per group in
// makeOptimizer's order; empty: 1 for all). Schedules drive the optimiser from outside.
void setLearningRate(torch::optim::Optimizer &optimizer, double lr, const std::vector<double> &lrFactors = {});

// PyTorch's zero_grad(set_to_none=True): every gradient undefined, so the next backward hands
// its gradients over instead of adding them onto zeroed ones (a fill and an add per parameter
// saved). LibTorch 1.13's Optimizer::zero_grad() only zeroes.
void releaseGradients(torch::optim::Optimizer &optimizer);

}  // namespace tw::engine
