#include "core/engine/export/onnx_patterns.h"

#include "core/engine/export/onnx_emit.h"

#include <cmath>

namespace tw::engine {

std::string onnxGelu(OnnxEmit &e, const std::string &x, const std::string &s, bool tanh) {
  std::string inner;
  if (tanh) {
    const std::string cube = e.op("Mul", {x, e.op("Mul", {x, x}, s + "/square")}, s + "/cube");
    const std::string cubic =
        e.op("Mul", {cube, e.constant(s + "/cubic_value", torch::tensor(0.044715f))}, s + "/cubic");
    const std::string sum = e.op("Add", {x, cubic}, s + "/sum");
    const float root = static_cast<float>(std::sqrt(2.0 / M_PI));
    const std::string scaled = e.op("Mul", {sum, e.constant(s + "/root_value", torch::tensor(root))}, s + "/scaled");
    inner = e.op("Tanh", {scaled}, s + "/tanh");
  } else {
    const std::string scaled =
        e.op("Div", {x, e.constant(s + "/sqrt2_value", torch::tensor(std::sqrt(2.0f)))}, s + "/scaled");
    inner = e.op("Erf", {scaled}, s + "/erf");
  }
  const std::string onePlus = e.op("Add", {inner, e.constant(s + "/one_value", torch::tensor(1.0f))}, s + "/one_plus");
  const std::string half = e.op("Mul", {x, e.constant(s + "/half_value", torch::tensor(0.5f))}, s + "/half");
  return e.op("Mul", {half, onePlus}, s);
}

std::string onnxLayerNorm(OnnxEmit &e, const std::string &x, const std::string &scale, const std::string &bias,
                          double eps, const std::string &s) {
  if (e.opset() >= 17) {
    std::vector<std::string> in{x, scale};
    if (!bias.empty()) in.push_back(bias);
    return e.op("LayerNormalization", in, s, {OnnxAttr::integer("axis", -1), OnnxAttr::real("epsilon", eps)});
  }
  const std::vector<OnnxAttr> lastAxis{OnnxAttr::list("axes", {-1})};
  const std::string d = e.op("Sub", {x, e.op("ReduceMean", {x}, s + "/mean", lastAxis)}, s + "/centred");
  const std::string var = e.op("ReduceMean", {e.op("Mul", {d, d}, s + "/square")}, s + "/var", lastAxis);
  const std::string varEps =
      e.op("Add", {var, e.constant(s + "/eps", torch::tensor(static_cast<float>(eps)))}, s + "/var_eps");
  const std::string norm = e.op("Div", {d, e.op("Sqrt", {varEps}, s + "/std")}, s + "/norm");
  const std::string scaled = e.op("Mul", {norm, scale}, s + "/scaled");
  return bias.empty() ? scaled : e.op("Add", {scaled, bias}, s);
}

}  // namespace tw::engine
