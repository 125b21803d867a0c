#pragma once
// Computations that several ONNX emitters write out the same way, because the opsets we target
// have no single op for them. Each adds its nodes under the emitting node and returns the value.

#include <string>

namespace tw::engine {

class OnnxEmit;

// x * 0.5 * (1 + erf(x / sqrt(2))): the exact GELU torch computes (ONNX has Gelu from opset 20);
// with `tanh`, x * 0.5 * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 x^3))), torch's approximation, with
// x^3 as x * (x * x) as torch writes it.
std::string onnxGelu(OnnxEmit &e, const std::string &x, const std::string &suffix, bool tanh = false);

// LayerNormalization over the last axis (opset 17), its definition at lower opsets. `bias` may be
// empty.
std::string onnxLayerNorm(OnnxEmit &e, const std::string &x, const std::string &scale, const std::string &bias,
                          double eps, const std::string &suffix);

}  // namespace tw::engine
