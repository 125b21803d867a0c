#include "core/engine/optimizer_state.h"

#include <stdexcept>

namespace tw::engine {

namespace {

template <class State>
std::unique_ptr<torch::optim::OptimizerParamState> make() {
  return std::make_unique<State>();
}

template <class State>
State &as(torch::optim::OptimizerParamState &state) {
  return static_cast<State &>(state);
}

// Adam and AdamW keep the same fields in two unrelated types.
template <class State>
OptimizerState adamLike() {
  return {make<State>,
          [](torch::optim::OptimizerParamState &s) -> std::vector<torch::Tensor *> {
            State &a = as<State>(s);
            return {&a.exp_avg(), &a.exp_avg_sq(), &a.max_exp_avg_sq()};
          },
          [](torch::optim::OptimizerParamState &s) { return &as<State>(s).step(); }};
}

const OptimizerState kAdam = adamLike<torch::optim::AdamParamState>();
const OptimizerState kAdamW = adamLike<torch::optim::AdamWParamState>();
const OptimizerState kSgd{make<torch::optim::SGDParamState>,
                          [](torch::optim::OptimizerParamState &s) -> std::vector<torch::Tensor *> {
                            return {&as<torch::optim::SGDParamState>(s).momentum_buffer()};
                          },
                          [](torch::optim::OptimizerParamState &) -> int64_t * { return nullptr; }};
const OptimizerState kRmsprop{make<torch::optim::RMSpropParamState>,
                              [](torch::optim::OptimizerParamState &s) -> std::vector<torch::Tensor *> {
                                auto &r = as<torch::optim::RMSpropParamState>(s);
                                return {&r.square_avg(), &r.momentum_buffer(), &r.grad_avg()};
                              },
                              [](torch::optim::OptimizerParamState &s) {
                                return &as<torch::optim::RMSpropParamState>(s).step();
                              }};

}  // namespace

const OptimizerState &optimizerState(const torch::optim::Optimizer &optimizer) {
  if (dynamic_cast<const torch::optim::AdamW *>(&optimizer)) return kAdamW;
  if (dynamic_cast<const torch::optim::Adam *>(&optimizer)) return kAdam;
  if (dynamic_cast<const torch::optim::SGD *>(&optimizer)) return kSgd;
  if (dynamic_cast<const torch::optim::RMSprop *>(&optimizer)) return kRmsprop;
  throw std::logic_error("optimiser state: an optimiser makeOptimizer does not build");
}

std::string stateKey(const torch::Tensor &param) { return c10::guts::to_string(param.unsafeGetTensorImpl()); }

int64_t optimizerStateBytes(const torch::optim::Optimizer &optimizer) {
  const OptimizerState &kind = optimizerState(optimizer);
  int64_t bytes = 0;
  for (const auto &[key, state] : optimizer.state())
    for (const torch::Tensor *t : kind.tensors(*state))
      if (t->defined()) bytes += t->numel() * static_cast<int64_t>(t->element_size());
  return bytes;
}

}  // namespace tw::engine
