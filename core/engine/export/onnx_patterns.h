#pragma once
// Computations that several ONNX emitters write out the same way, because the opsets we target
// have no single op for them. Each adds its nodes under the emitting node and returns the value.

#include <string>

namespace tw::engine {

class OnnxEmit;

// x * 0.5 * (1 + erf(x / sqrt(2))): the exact GELU torch computes (ONNX has Gelu from opset 20).
std::string onnxGelu(OnnxEmit &e, const std::string &x, const std::string &suffix);

// LayerNormalization over the last axis (opset 17), its definition at lower opsets. `bias` may be
// empty.
std::string onnxLayerNorm(OnnxEmit &e, const std::string &x, const std::string &scale, const std::string &bias,
                          double eps, const std::string &suffix);

}  // namespace tw::engine
