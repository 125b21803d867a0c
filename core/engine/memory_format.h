#pragma once
// The memory layout a run's activations and convolution weights use. Channels-last (NHWC) is
// invisible to the model's meaning: every op reads tensors by their logical NCHW indices, and
// Flatten still orders features channel by channel. Only speed, and the last bits of floating
// point sums, depend on it. Engine-internal.
//
//   const bool nhwc = useChannelsLast(t.memory_format, spec::hasConvolution(spec, 2), device);
//   if (nhwc) { toChannelsLast(*model); model->setChannelsLastInputs(true); }

#include "core/spec/model_spec.h"

#include <torch/torch.h>

#include <string>

namespace tw::engine {

// train.memory_format: "channels_last" | "contiguous" | "auto" (channels-last for a model with a
// 2-D convolution, the only op channels-last speeds up, on the CPU; contiguous otherwise). Throws std::runtime_error on another name.
bool useChannelsLast(const std::string &option, bool conv2d, const torch::Device &device);

// `t` laid out channels-last: `t` itself when LibTorch already reads it as channels-last, else a
// copy. Tensors with one channel count as both layouts to Tensor::contiguous(), which then keeps
// the NCHW strides; oneDNN goes by the strides, so those are re-laid out too.
torch::Tensor asChannelsLast(const torch::Tensor &t);

// Every 4-D parameter and buffer (convolution weights) re-laid out as channels-last, in place,
// keeping its identity so the optimiser and checkpoints still refer to the same tensors.
void toChannelsLast(torch::nn::Module &module);

}  // namespace tw::engine
