#include "core/engine/diagnostics.h"

#include "core/config/metric_keys.h"

#include <dlfcn.h>

#include <cmath>
#include <limits>

namespace tw::engine {

namespace {

// BLAS's own dot product, looked up once. LibTorch's dot goes to the same BLAS routine, but the
// reshape, dispatch and stacking around it cost more than the arithmetic for a small model:
// with a norm logged every step, that was about 3% of an MLP's step.
using Sdot = float (*)(int, const float *, int, const float *, int);
Sdot blasDot() {
  static const Sdot dot = reinterpret_cast<Sdot>(dlsym(RTLD_DEFAULT, "cblas_sdot"));
  return dot;
}

}  // namespace

double gradientNorm(const std::vector<torch::Tensor> &params) {
  torch::NoGradGuard noGrad;
  const Sdot dot = blasDot();
  double sum = 0.0;
  // Tensors BLAS cannot take (other dtypes, devices, layouts) go through LibTorch, with one host
  // read for all of them: on a GPU each read is a synchronisation.
  std::vector<torch::Tensor> squares;
  for (const auto &p : params) {
    const torch::Tensor &grad = p.grad();
    if (!grad.defined()) continue;
    const int64_t n = grad.numel();
    if (dot && grad.device().is_cpu() && grad.scalar_type() == torch::kFloat &&
        grad.is_non_overlapping_and_dense() &&
        n <= std::numeric_limits<int>::max()) {
      // A sum of squares ignores element order, so any dense layout will do (channels-last
      // convolution gradients included).
      const float *x = grad.data_ptr<float>();
      sum += static_cast<double>(dot(static_cast<int>(n), x, 1, x, 1));
      continue;
    }
    const torch::Tensor flat = grad.reshape({-1}).to(torch::kFloat);
    squares.push_back(torch::dot(flat, flat));
  }
  if (!squares.empty()) sum += torch::stack(squares).sum().item<double>();
  return std::sqrt(sum);
}

std::vector<std::pair<std::string, double>> layerNorms(const torch::nn::Module &model,
                                                       const std::map<const void *, double> &gradNorms) {
  torch::NoGradGuard noGrad;
  std::vector<std::pair<std::string, double>> norms;
  for (const auto &item : model.named_parameters()) {
    const torch::Tensor &p = item.value();
    norms.emplace_back(config::metrics::kWeightNormPrefix + item.key(), p.norm().item<double>());
    if (p.grad().defined()) norms.emplace_back(config::metrics::kGradNormPrefix + item.key(), p.grad().norm().item<double>());
    else if (auto it = gradNorms.find(p.unsafeGetTensorImpl()); it != gradNorms.end())
      norms.emplace_back(config::metrics::kGradNormPrefix + item.key(), it->second);
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
