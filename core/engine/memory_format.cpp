#include "core/engine/memory_format.h"

#include <stdexcept>

namespace tw::engine {

// Measured on the CPU with this LibTorch (1.13, oneDNN 2.6), the benchmark CNN trains 20-30%
// faster channels-last: oneDNN convolves NHWC natively instead of reordering NCHW at every
// convolution, and batch norm and max pooling have vectorised NHWC kernels where their NCHW ones
// walk one plane at a time. On CUDA the gain depends on the GPU and precision, so auto leaves it.
bool useChannelsLast(const std::string &option, bool conv2d, const torch::Device &device) {
  if (option == "channels_last") return true;
  if (option == "contiguous") return false;
  if (option == "auto") return conv2d && device.is_cpu();
  throw std::runtime_error("train.memory_format: '" + option + "' is not auto, channels_last or contiguous");
}

torch::Tensor asChannelsLast(const torch::Tensor &t) {
  if (t.dim() != 4 || t.suggest_memory_format() == at::MemoryFormat::ChannelsLast) return t;
  return torch::empty(t.sizes(), t.options().memory_format(at::MemoryFormat::ChannelsLast)).copy_(t);
}

void toChannelsLast(torch::nn::Module &module) {
  torch::NoGradGuard noGrad;
  auto relayout = [](torch::Tensor &t) {
    if (!t.defined()) return;
    torch::Tensor nhwc = asChannelsLast(t);
    if (!nhwc.is_same(t)) t.set_data(nhwc);
  };
  for (auto &item : module.named_parameters(/*recurse=*/true)) relayout(item.value());
  for (auto &item : module.named_buffers(/*recurse=*/true)) relayout(item.value());
}

}  // namespace tw::engine
