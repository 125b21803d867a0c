#pragma once
// Activation checkpointing: a part of the graph run so that autograd keeps only what enters it.
// Its forward runs without recording; the backward pass runs it again, with the random state
// (dropout's masks) and the autocast state it first ran with, and back-propagates through that
// second run. Memory for compute: the activations inside the segment exist only while its
// backward runs. The recomputation leaves the modules' buffers as the first run left them, so a
// BatchNorm's running statistics move once per step, as without checkpointing. Engine-internal.
//
//   CheckpointSegment segment{[&](const std::vector<torch::Tensor> &in) { return runPart(in); }, modules};
//   std::vector<torch::Tensor> out = runCheckpointed(segment, inputs);

#include <torch/torch.h>

#include <functional>
#include <memory>
#include <vector>

namespace tw::engine {

struct CheckpointSegment {
  // The segment's computation: its inputs to its outputs. Called twice per training step.
  std::function<std::vector<torch::Tensor>(const std::vector<torch::Tensor> &)> run;
  // The modules it runs, whose buffers the recomputation must not move.
  std::vector<std::shared_ptr<torch::nn::Module>> modules;
};

// `segment` must outlive the backward pass of the graph this call records into.
std::vector<torch::Tensor> runCheckpointed(const CheckpointSegment &segment, const std::vector<torch::Tensor> &inputs);

}  // namespace tw::engine
