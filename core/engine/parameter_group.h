#pragma once
// Trainable parameters that share a learning-rate factor (a node's lr_factor): the model hands
// them out (GraphModule::parameterGroups), the optimiser makes one parameter group of each.
// Engine-internal (includes LibTorch).

#include <torch/torch.h>

#include <vector>

namespace tw::engine {

struct ParameterGroup {
  double lrFactor = 1.0;
  std::vector<torch::Tensor> params;
};

}  // namespace tw::engine
