#include "core/engine/model_builder.h"

namespace tw::engine {

std::shared_ptr<GraphModule> buildModel(const spec::ModelSpec &spec, const spec::Analysis &analysis) {
  return std::make_shared<GraphModule>(spec, analysis);
}

int64_t countParameters(const torch::nn::Module &module) {
  int64_t total = 0;
  for (const torch::Tensor &p : module.parameters(/*recurse=*/true))
    if (p.requires_grad()) total += p.numel();
  return total;
}

}  // namespace tw::engine
