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

// How far an int8 file's outputs may lie from the simulation's on the check examples before the
// export refuses the file: half of what quantizing costs the simulation there (the largest
// difference between `simulated` and `trained`, the float model's outputs), and never under the
// float files' 1e-4. The file and the simulation compute the same quantized arithmetic in float
// operations that differ in rounding (another summation order), which now and then puts a value
// on the other side of a rounding boundary: one step of one activation, a small part of the
// rounding errors of every activation that quantizing costs, and both grow alike with the model
// (measured: 0 in test_export, at most 0.12 of the cost in exports of trained CNNs). A file
// computing something else lies at least as far from the simulation as the float model does (1.0
// of the cost with its weights left in float, 1.5 to 4.5 with ranges twice the plan's).
// test_export's int8FileMatchesItsSimulation checks both sides. NaN when either is not finite.
inline constexpr double kInt8CheckShare = 0.5;
double int8CheckLimit(const torch::Tensor &simulated, const torch::Tensor &trained);

}  // namespace tw::engine
