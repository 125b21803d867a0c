#pragma once
// What a practitioner looks at when training misbehaves: the global gradient norm per step, the
// per-layer weight and gradient norms per epoch (vanishing or exploding gradients), and, when a
// value turns non-finite, which tensor did it. Engine-internal.

#include <torch/torch.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace tw::engine {

// The L2 norm over every gradient (as clip_grad_norm_ computes it); 0 when none.
double gradientNorm(const std::vector<torch::Tensor> &params);

// (parameter name, value) per parameter: "weight_norm/<name>" and "grad_norm/<name>" metrics.
// `gradNorms`, by the parameter's TensorImpl, stand in for gradients this rank does not hold
// (distributed.shard: gradients).
std::vector<std::pair<std::string, double>> layerNorms(const torch::nn::Module &model,
                                                       const std::map<const void *, double> &gradNorms = {});

// The first parameter whose gradient (or, when `weights`, whose value) holds a NaN or Inf, as
// "'h1_fc.weight' (gradient, NaN)"; empty when all are finite.
std::string firstNonFinite(const torch::nn::Module &model, bool weights);

}  // namespace tw::engine
