#pragma once
// The per-parameter state of the optimisers makeOptimizer builds (sgd, adam, adamw, rmsprop),
// seen from outside: a step count and tensors the shape of the parameter, every one updated
// element by element. Sharding (sharded_optimizer.h) moves slices of these between ranks and
// between a shard and the model's parameters; LibTorch keeps them in a type per optimiser.
// Engine-internal.
//
//   const OptimizerState &kind = optimizerState(optimizer);
//   for (torch::Tensor *t : kind.tensors(*optimizer.state().at(stateKey(p)))) ...

#include <torch/torch.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace tw::engine {

struct OptimizerState {
  // A fresh, empty state of the optimiser's type.
  std::unique_ptr<torch::optim::OptimizerParamState> (*make)();
  // The state's tensors in a fixed order; an optional one the options leave out (amsgrad's
  // maximum, rmsprop's momentum) is undefined, alike on every rank.
  std::vector<torch::Tensor *> (*tensors)(torch::optim::OptimizerParamState &);
  // The step count, or null for an optimiser that keeps none (sgd).
  int64_t *(*step)(torch::optim::OptimizerParamState &);
};

// Throws std::logic_error for an optimiser of another type.
const OptimizerState &optimizerState(const torch::optim::Optimizer &optimizer);

// The key LibTorch files a parameter's state under in Optimizer::state().
std::string stateKey(const torch::Tensor &param);

// Bytes of every tensor of the optimiser's state.
int64_t optimizerStateBytes(const torch::optim::Optimizer &optimizer);

}  // namespace tw::engine
