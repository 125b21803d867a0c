#include "core/engine/export/int8_quantization.h"

#include "core/spec/registry.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

namespace tw::engine {

bool quantizedOp(const std::string &op) {
  const spec::OpDef *def = spec::Registry::instance().find(op);
  return def && def->int8Weights;
}

Int8Plan calibrateInt8(GraphModule &module, const spec::Analysis &analysis, const torch::Tensor &inputs) {
  std::set<std::string> quantized;
  for (const auto &node : analysis.nodes)
    if (quantizedOp(node.op)) quantized.insert(node.id);
  Int8Plan plan;
  torch::NoGradGuard noGrad;
  module.eval();
  module.setHooks(
      [&](const std::string &id, std::vector<torch::Tensor> &args) {
        if (!quantized.count(id)) return;
        const float lo = args[0].min().item<float>(), hi = args[0].max().item<float>();
        auto it = plan.inputRanges.find(id);
        if (it == plan.inputRanges.end()) {
          plan.inputRanges[id] = {lo, hi};
        } else {
          it->second.min = std::min(it->second.min, lo);
          it->second.max = std::max(it->second.max, hi);
        }
      },
      {});
  constexpr int64_t kBatch = 256;
  for (int64_t i = 0; i < inputs.size(0); i += kBatch)
    module.forward(inputs.slice(0, i, std::min(i + kBatch, inputs.size(0))));
  module.setHooks({}, {});
  plan.calibrationExamples = inputs.size(0);
  return plan;
}

QuantizedWeight quantizeWeight(const torch::Tensor &weight) {
  const torch::Tensor w = weight.detach().to(torch::kFloat).contiguous();
  const torch::Tensor flat = w.reshape({w.size(0), -1});
  torch::Tensor scales = flat.abs().amax(1) / 127.0f;
  scales = torch::where(scales > 0, scales, torch::ones_like(scales));  // an all-zero channel stays zero
  std::vector<int64_t> shape(static_cast<size_t>(w.dim()), 1);
  shape[0] = w.size(0);
  const torch::Tensor q = torch::round(w / scales.reshape(shape)).clamp(-127, 127).to(torch::kChar);
  return {q, scales};
}

torch::Tensor dequantize(const QuantizedWeight &q) {
  std::vector<int64_t> shape(static_cast<size_t>(q.values.dim()), 1);
  shape[0] = q.values.size(0);
  return q.values.to(torch::kFloat) * q.scales.reshape(shape);
}

ActivationQuant activationQuant(const ActivationRange &range) {
  const float lo = std::min(range.min, 0.0f), hi = std::max(range.max, 0.0f);
  ActivationQuant q;
  q.scale = hi > lo ? (hi - lo) / 255.0f : 1.0f;
  q.zeroPoint = std::clamp<int64_t>(static_cast<int64_t>(std::nearbyint(-lo / q.scale)), 0, 255);
  return q;
}

void simulateInt8(GraphModule &module, const spec::Analysis &analysis, const Int8Plan &plan) {
  torch::NoGradGuard noGrad;
  for (const auto &node : analysis.nodes) {
    if (!quantizedOp(node.op)) continue;
    const std::string name = module.moduleName(node.id);
    for (auto &child : module.named_children()) {
      if (child.key() != name) continue;
      for (auto &p : child.value()->named_parameters(false))
        if (p.key() == "weight") p.value().copy_(dequantize(quantizeWeight(p.value())));
    }
  }
  std::map<std::string, ActivationQuant> quants;
  for (const auto &[id, range] : plan.inputRanges) quants[id] = activationQuant(range);
  module.setHooks(
      [quants](const std::string &id, std::vector<torch::Tensor> &args) {
        auto it = quants.find(id);
        if (it == quants.end()) return;
        // As ONNX's QuantizeLinear: round half to even, saturate to [0, 255]; then dequantize.
        const auto [scale, zero] = it->second;
        args[0] = ((torch::round(args[0] / scale) + zero).clamp(0, 255) - zero) * scale;
      },
      {});
}

double int8CheckLimit(const torch::Tensor &simulated, const torch::Tensor &trained) {
  const torch::Tensor cost = (simulated.detach().to(torch::kDouble) - trained.detach().to(torch::kDouble)).abs();
  if (!torch::isfinite(cost).all().item<bool>()) return std::numeric_limits<double>::quiet_NaN();
  return std::max(1e-4, kInt8CheckShare * cost.max().item<double>());
}

}  // namespace tw::engine
