#include "core/spec/registry_ops.h"

namespace tw::spec::detail {

namespace {

Shape same(const std::vector<Shape> &in, const ParamMap &) { return in[0]; }

OpDef elementwise(std::string name, std::string doc, std::vector<ParamDef> params = {}) {
  OpDef op;
  op.name = std::move(name);
  op.category = OpCategory::Activation;
  op.doc = std::move(doc);
  op.params = std::move(params);
  op.shape = same;
  return op;
}

OpDef softmax(std::string name, std::string doc) {
  OpDef op = elementwise(name, std::move(doc),
                         {optionalParam("dim", ParamType::Int, int64_t{-1},
                                        "Dimension to normalise over (torch numbering; 0, the batch, is refused); -1 is the last.")});
  op.shape = [name](const std::vector<Shape> &in, const ParamMap &p) {
    torchDim(getInt(p, "dim"), in[0].size(), "dim", name);
    return in[0];
  };
  return op;
}

}  // namespace

void addActivationOps(std::vector<OpDef> &ops) {
  OpDef dropout = elementwise("Dropout", "Zeroes each element with probability p while training.",
                              {optionalParam("p", ParamType::Float, 0.5, "Probability of zeroing an element.", 0.0, 1.0)});
  dropout.category = OpCategory::Layer;
  dropout.keepsDtype = true;
  ops.push_back(dropout);
  ops.push_back(elementwise("ReLU", "Rectified linear unit: max(0, x)."));
  ops.push_back(elementwise("LeakyReLU", "Leaky ReLU: x for x >= 0, negative_slope * x otherwise.",
                            {optionalParam("negative_slope", ParamType::Float, 0.01,
                                           "Slope for negative inputs.")}));
  // torch's nn.GELU(approximate='tanh'), which GPT-2 and BERT ports use; ONNX files write it as
  // its tanh formula (onnx_fusions.h).
  ParamDef approximate =
      optionalParam("approximate", ParamType::String, std::string("none"),
                    "none: x * Phi(x) with the exact error function; tanh: torch's tanh approximation.");
  approximate.choices = {"none", "tanh"};
  ops.push_back(elementwise("GELU", "Gaussian error linear unit.", {approximate}));
  ops.push_back(elementwise("SiLU", "Sigmoid linear unit (swish): x * sigmoid(x)."));
  ops.push_back(elementwise("Tanh", "Hyperbolic tangent."));
  ops.push_back(elementwise("Sigmoid", "Logistic sigmoid: 1 / (1 + exp(-x))."));
  // MobileNet's activations (torch.nn.ReLU6, Hardsigmoid, Hardswish), which ONNX files carry as
  // Clip(0, 6), HardSigmoid(alpha 1/6, beta 0.5) and HardSwish.
  ops.push_back(elementwise("ReLU6", "ReLU capped at 6: min(max(0, x), 6)."));
  ops.push_back(elementwise("Hardsigmoid", "Piecewise-linear sigmoid: min(max(0, x / 6 + 1/2), 1)."));
  ops.push_back(elementwise("Hardswish", "Piecewise-linear swish: x * Hardsigmoid(x)."));
  OpDef probabilities = softmax("Softmax", "Softmax along one dimension: outputs are positive and sum to 1.");
  probabilities.outputKind = "probabilities";
  ops.push_back(probabilities);
  OpDef logProbabilities = softmax("LogSoftmax", "Logarithm of the softmax along one dimension, computed stably.");
  logProbabilities.outputKind = "log_probabilities";
  ops.push_back(logProbabilities);
}

}  // namespace tw::spec::detail
