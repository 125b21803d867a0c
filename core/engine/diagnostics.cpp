#include "core/engine/diagnostics.h"

#include <cmath>

namespace tw::engine {

double gradientNorm(const std::vector<torch::Tensor> &params) {
  torch::NoGradGuard noGrad;
  // A dot product per tensor goes to BLAS (LibTorch's norm kernel is slower on the CPU), and one
  // host read for all of them: on a GPU each read is a synchronisation.
  std::vector<torch::Tensor> squares;
  for (const auto &p : params) {
    if (!p.grad().defined()) continue;
    const torch::Tensor flat = p.grad().reshape({-1}).to(torch::kFloat);
    squares.push_back(torch::dot(flat, flat));
  }
  return squares.empty() ? 0.0 : std::sqrt(torch::stack(squares).sum().item<double>());
}

std::vector<std::pair<std::string, double>> layerNorms(const torch::nn::Module &model) {
  torch::NoGradGuard noGrad;
  std::vector<std::pair<std::string, double>> norms;
  for (const auto &item : model.named_parameters()) {
    const torch::Tensor &p = item.value();
    norms.emplace_back("weight_norm/" + item.key(), p.norm().item<double>());
    if (p.grad().defined()) norms.emplace_back("grad_norm/" + item.key(), p.grad().norm().item<double>());
  }
  return norms;
}

std::string firstNonFinite(const torch::nn::Module &model, bool weights) {
  torch::NoGradGuard noGrad;
  for (const auto &item : model.named_parameters()) {
    const torch::Tensor t = weights ? item.value() : item.value().grad();
    if (!t.defined() || torch::isfinite(t).all().item<bool>()) continue;
    const bool nan = torch::isnan(t).any().item<bool>();
    return "'" + item.key() + "' (" + (weights ? "weight" : "gradient") + ", " + (nan ? "NaN" : "Inf") + ")";
  }
  return {};
}

}  // namespace tw::engine
