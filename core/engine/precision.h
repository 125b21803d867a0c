#pragma once
// Devices and numeric precision: where the run computes and in which floating-point format.
// Engine-internal.
//
//   torch::Device device = parseDevice("cuda:1");         // throws when this build has no CUDA
//   { AutocastGuard autocast(Precision::BF16, device); output = model->forward(x); }
//   GradScaler scaler;                                     // fp16 only: dynamic loss scaling

#include <torch/torch.h>

#include <string>

namespace tw::engine {

enum class Precision { FP32, BF16, FP16 };

// "fp32" | "bf16" | "fp16"; fp16 needs a CUDA device (CPU kernels for half are slow or missing).
Precision parsePrecision(const std::string &name, const torch::Device &device);
// "cpu" | "cuda" | "cuda:N". Throws std::runtime_error when CUDA is asked for and this LibTorch
// has none, or the index is beyond the GPUs present.
torch::Device parseDevice(const std::string &name);
// Whether this LibTorch build can run on CUDA at all (false for Debian's CPU LibTorch).
bool cudaBuild();

// Autocast for the scope (the forward pass); a no-op for FP32.
class AutocastGuard {
 public:
  AutocastGuard(Precision precision, const torch::Device &device);
  ~AutocastGuard();
  AutocastGuard(const AutocastGuard &) = delete;
  AutocastGuard &operator=(const AutocastGuard &) = delete;

 private:
  bool m_cpu = false, m_cuda = false;
  bool m_previousCpu = false, m_previousCuda = false;
};

// This thread's autocast settings, captured and put back for a scope: what an activation-
// checkpointed segment recomputed in the backward pass (outside the forward's AutocastGuard)
// must compute with.
struct AutocastState {
  bool cpu = false, cuda = false;
  at::ScalarType cpuType = at::kBFloat16, cudaType = at::kHalf;
};
AutocastState currentAutocast();
class AutocastRestore {
 public:
  explicit AutocastRestore(const AutocastState &state);
  ~AutocastRestore();
  AutocastRestore(const AutocastRestore &) = delete;
  AutocastRestore &operator=(const AutocastRestore &) = delete;

 private:
  AutocastState m_previous;
};

// Dynamic loss scaling for fp16, as torch.cuda.amp.GradScaler: multiply the loss by `scale`,
// unscale the gradients before clipping and the step, skip the step and halve the scale when a
// gradient overflowed, double it after `growthInterval` clean steps.
class GradScaler {
 public:
  explicit GradScaler(bool enabled, double scale = 65536.0, int64_t goodSteps = 0);
  torch::Tensor scale(const torch::Tensor &loss) const;
  // Divides every gradient by the scale; returns false when any is Inf or NaN (skip the step).
  bool unscale(const std::vector<torch::Tensor> &params);
  void update(bool stepped);
  bool enabled() const { return m_enabled; }
  double scaleValue() const { return m_scale; }
  int64_t goodSteps() const { return m_goodSteps; }

 private:
  bool m_enabled;
  double m_scale;
  int64_t m_goodSteps;
  static constexpr int64_t kGrowthInterval = 2000;
};

}  // namespace tw::engine
