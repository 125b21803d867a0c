#pragma once
// int8 for the ONNX export: the Linear and Conv weights quantized per output channel (symmetric
// int8), and the activations entering them quantized per tensor (asymmetric uint8) with ranges
// calibrated on a slice of the training data: static QDQ, which ONNX Runtime executes (and fuses
// into integer kernels where it can). The same arithmetic simulated in LibTorch gives the
// accuracy the file will have. Engine-internal.

#include "core/engine/graph_module.h"
#include "core/spec/analysis.h"

#include <torch/torch.h>

#include <cstdint>
#include <map>
#include <string>

namespace tw::engine {

struct ActivationRange {
  float min = 0.0f, max = 0.0f;
};

struct Int8Plan {
  std::map<std::string, ActivationRange> inputRanges;  // quantized node id -> the range of its input
  int64_t calibrationExamples = 0;
};

// The ops whose weights and inputs are quantized.
bool quantizedOp(const std::string &op);

// Runs the model (evaluation mode) over `inputs` (as the model sees them: standardised) in
// batches and records the range of every quantized node's input.
Int8Plan calibrateInt8(GraphModule &module, const spec::Analysis &analysis, const torch::Tensor &inputs);

struct QuantizedWeight {
  torch::Tensor values;  // int8, the weight's shape
  torch::Tensor scales;  // float, one per output channel (dimension 0)
};
// Symmetric per-channel int8: scale = max|w| / 127 per output channel, values in [-127, 127].
QuantizedWeight quantizeWeight(const torch::Tensor &weight);
torch::Tensor dequantize(const QuantizedWeight &q);

struct ActivationQuant {
  float scale = 1.0f;
  int64_t zeroPoint = 0;  // uint8
};
// Asymmetric uint8 over the range widened to include 0 (so that zero padding stays exact).
ActivationQuant activationQuant(const ActivationRange &range);

// Makes `module` compute what the int8 file computes: quantized nodes get the dequantized int8
// weights, and their inputs are quantized and dequantized with the plan's ranges.
void simulateInt8(GraphModule &module, const spec::Analysis &analysis, const Int8Plan &plan);

}  // namespace tw::engine
