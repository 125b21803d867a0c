#include "core/engine/precision.h"

#include <ATen/autocast_mode.h>
#include <torch/version.h>

#include <stdexcept>

namespace tw::engine {

namespace {

// LibTorch 2.4 keyed autocast by device type and deprecated the per-device calls, which then warn
// on every training step; 1.13 has only those.
#if TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 4)
bool autocastEnabled(at::DeviceType type) { return at::autocast::is_autocast_enabled(type); }
void enableAutocast(at::DeviceType type, bool enabled) { at::autocast::set_autocast_enabled(type, enabled); }
void setAutocastType(at::DeviceType type, at::ScalarType dtype) { at::autocast::set_autocast_dtype(type, dtype); }
at::ScalarType autocastType(at::DeviceType type) { return at::autocast::get_autocast_dtype(type); }
#else
bool autocastEnabled(at::DeviceType type) {
  return type == at::kCUDA ? at::autocast::is_enabled() : at::autocast::is_cpu_enabled();
}
void enableAutocast(at::DeviceType type, bool enabled) {
  if (type == at::kCUDA) at::autocast::set_enabled(enabled);
  else at::autocast::set_cpu_enabled(enabled);
}
void setAutocastType(at::DeviceType type, at::ScalarType dtype) {
  if (type == at::kCUDA) at::autocast::set_autocast_gpu_dtype(dtype);
  else at::autocast::set_autocast_cpu_dtype(dtype);
}
at::ScalarType autocastType(at::DeviceType type) {
  return type == at::kCUDA ? at::autocast::get_autocast_gpu_dtype() : at::autocast::get_autocast_cpu_dtype();
}
#endif

void applyAutocast(const AutocastState &state) {
  setAutocastType(at::kCPU, state.cpuType);
  setAutocastType(at::kCUDA, state.cudaType);
  enableAutocast(at::kCPU, state.cpu);
  enableAutocast(at::kCUDA, state.cuda);
}

}  // namespace

bool cudaBuild() { return torch::cuda::is_available(); }

AutocastState currentAutocast() {
  AutocastState s;
  s.cpu = autocastEnabled(at::kCPU);
  s.cuda = autocastEnabled(at::kCUDA);
  s.cpuType = autocastType(at::kCPU);
  s.cudaType = autocastType(at::kCUDA);
  return s;
}

AutocastRestore::AutocastRestore(const AutocastState &state) : m_previous(currentAutocast()) { applyAutocast(state); }
AutocastRestore::~AutocastRestore() { applyAutocast(m_previous); }

torch::Device parseDevice(const std::string &name) {
  if (name == "cpu") return torch::kCPU;
  if (name.rfind("cuda", 0) != 0)
    throw std::runtime_error("train.device: unknown device '" + name + "' (expected cpu, cuda or cuda:N)");
  if (!torch::cuda::is_available()) {
    throw std::runtime_error("train.device: '" + name +
                             "' needs a CUDA build of LibTorch and a GPU; this build has none (use cpu, or build "
                             "against a CUDA LibTorch)");
  }
  torch::Device device(torch::kCUDA);
  try {
    device = torch::Device(name);
  } catch (const c10::Error &) {
    throw std::runtime_error("train.device: cannot read '" + name + "' (expected cuda or cuda:N)");
  }
  const int64_t count = static_cast<int64_t>(torch::cuda::device_count());
  if (device.has_index() && device.index() >= count)
    throw std::runtime_error("train.device: '" + name + "' but only " + std::to_string(count) + " GPU(s) are present");
  return device;
}

Precision parsePrecision(const std::string &name, const torch::Device &device) {
  if (name == "fp32") return Precision::FP32;
  if (name == "bf16") return Precision::BF16;
  if (name == "fp16") {
    if (!device.is_cuda())
      throw std::runtime_error("train.precision: fp16 needs a CUDA device; on the CPU use bf16");
    return Precision::FP16;
  }
  throw std::runtime_error("train.precision: unknown '" + name + "' (expected fp32, bf16 or fp16)");
}

AutocastGuard::AutocastGuard(Precision precision, const torch::Device &device) {
  if (precision == Precision::FP32) return;
  if (device.is_cuda()) {
    m_cuda = true;
    m_previousCuda = autocastEnabled(at::kCUDA);
    setAutocastType(at::kCUDA, precision == Precision::BF16 ? at::kBFloat16 : at::kHalf);
    enableAutocast(at::kCUDA, true);
  } else {
    m_cpu = true;
    m_previousCpu = autocastEnabled(at::kCPU);
    setAutocastType(at::kCPU, at::kBFloat16);
    enableAutocast(at::kCPU, true);
  }
}

AutocastGuard::~AutocastGuard() {
  // The cast cache holds bf16 copies of the weights for this forward pass only; the next pass
  // must see the updated weights.
  if (m_cpu) enableAutocast(at::kCPU, m_previousCpu);
  if (m_cuda) enableAutocast(at::kCUDA, m_previousCuda);
  if (m_cpu || m_cuda) at::autocast::clear_cache();
}

GradScaler::GradScaler(bool enabled, double scale, int64_t goodSteps)
    : m_enabled(enabled), m_scale(scale), m_goodSteps(goodSteps) {}

torch::Tensor GradScaler::scale(const torch::Tensor &loss) const { return m_enabled ? loss * m_scale : loss; }

bool GradScaler::unscale(const std::vector<torch::Tensor> &params) {
  if (!m_enabled) return true;
  torch::NoGradGuard noGrad;
  bool finite = true;
  for (const auto &p : params) {
    torch::Tensor g = p.grad();
    if (!g.defined()) continue;
    g.div_(m_scale);
    finite = finite && torch::isfinite(g).all().item<bool>();
  }
  return finite;
}

void GradScaler::update(bool stepped) {
  if (!m_enabled) return;
  if (!stepped) {
    m_scale *= 0.5;
    m_goodSteps = 0;
  } else if (++m_goodSteps >= kGrowthInterval) {
    m_scale *= 2.0;
    m_goodSteps = 0;
  }
}

}  // namespace tw::engine
