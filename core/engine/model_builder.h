#pragma once
// Spec -> LibTorch model, for the trainer and the engine tests.
//
//   auto spec = tw::spec::parseModelYaml(text);
//   auto analysis = tw::spec::analyzeOrThrow(spec);
//   auto model = tw::engine::buildModel(spec, analysis);
//   torch::Tensor logits = model->forward(images);   // images: [N, 1, 28, 28]

#include "core/engine/graph_module.h"

#include <cstdint>
#include <memory>

namespace tw::engine {

// Throws std::runtime_error when the analysis has diagnostics or a node does not build.
std::shared_ptr<GraphModule> buildModel(const spec::ModelSpec &spec, const spec::Analysis &analysis);

// Trainable parameters (requires_grad), the number the registry's parameter-count rules predict.
int64_t countParameters(const torch::nn::Module &module);

}  // namespace tw::engine
