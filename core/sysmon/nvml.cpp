#include "core/sysmon/nvml.h"

#include <dlfcn.h>

namespace tw::sysmon {

namespace {

// The few NVML types and entry points used, as the stable C ABI declares them (nvml.h is not
// needed to build: the library is optional at run time).
using nvmlReturn_t = int;
using nvmlDevice_t = void *;
struct nvmlUtilization_t {
  unsigned int gpu;
  unsigned int memory;
};
struct nvmlMemory_t {
  unsigned long long total;
  unsigned long long free;
  unsigned long long used;
};
constexpr nvmlReturn_t kSuccess = 0;
constexpr int kTemperatureGpu = 0;

}  // namespace

struct Nvml::Api {
  nvmlReturn_t (*init)();
  nvmlReturn_t (*shutdown)();
  nvmlReturn_t (*count)(unsigned int *);
  nvmlReturn_t (*handle)(unsigned int, nvmlDevice_t *);
  nvmlReturn_t (*name)(nvmlDevice_t, char *, unsigned int);
  nvmlReturn_t (*utilization)(nvmlDevice_t, nvmlUtilization_t *);
  nvmlReturn_t (*memory)(nvmlDevice_t, nvmlMemory_t *);
  nvmlReturn_t (*temperature)(nvmlDevice_t, int, unsigned int *);
  nvmlReturn_t (*power)(nvmlDevice_t, unsigned int *);
};

Nvml::Nvml() {
  m_library = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!m_library) {
    m_why = "no NVIDIA GPU (libnvidia-ml.so.1, the driver's NVML library, is not installed)";
    return;
  }
  auto *api = new Api{};
  auto bind = [&](auto &fn, const char *name) {
    fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(m_library, name));
    return fn != nullptr;
  };
  const bool complete = bind(api->init, "nvmlInit_v2") && bind(api->shutdown, "nvmlShutdown") &&
                        bind(api->count, "nvmlDeviceGetCount_v2") &&
                        bind(api->handle, "nvmlDeviceGetHandleByIndex_v2") && bind(api->name, "nvmlDeviceGetName") &&
                        bind(api->utilization, "nvmlDeviceGetUtilizationRates") &&
                        bind(api->memory, "nvmlDeviceGetMemoryInfo") &&
                        bind(api->temperature, "nvmlDeviceGetTemperature") && bind(api->power, "nvmlDeviceGetPowerUsage");
  if (!complete || api->init() != kSuccess) {
    m_why = complete ? "no NVIDIA GPU (NVML found no driver to talk to)" : "NVML is too old (an entry point is missing)";
    delete api;
    return;
  }
  unsigned int count = 0;
  if (api->count(&count) != kSuccess || count == 0) {
    m_why = "no NVIDIA GPU (the driver reports none)";
    api->shutdown();
    delete api;
    return;
  }
  m_api = api;
  m_ready = true;
}

Nvml::~Nvml() {
  if (m_api) {
    m_api->shutdown();
    delete m_api;
  }
  if (m_library) dlclose(m_library);
}

std::vector<GpuSample> Nvml::sample() const {
  std::vector<GpuSample> gpus;
  if (!m_ready) return gpus;
  unsigned int count = 0;
  if (m_api->count(&count) != kSuccess) return gpus;
  for (unsigned int i = 0; i < count; ++i) {
    nvmlDevice_t device = nullptr;
    if (m_api->handle(i, &device) != kSuccess) continue;
    GpuSample gpu;
    gpu.index = static_cast<int>(i);
    char name[96] = {};
    if (m_api->name(device, name, sizeof name) == kSuccess) gpu.name = name;
    nvmlUtilization_t util{};
    if (m_api->utilization(device, &util) == kSuccess) gpu.utilPercent = util.gpu;
    nvmlMemory_t memory{};
    if (m_api->memory(device, &memory) == kSuccess) {
      gpu.memoryUsedMb = static_cast<double>(memory.used) / (1024.0 * 1024.0);
      gpu.memoryTotalMb = static_cast<double>(memory.total) / (1024.0 * 1024.0);
    }
    unsigned int value = 0;
    if (m_api->temperature(device, kTemperatureGpu, &value) == kSuccess) gpu.temperatureC = value;
    if (m_api->power(device, &value) == kSuccess) gpu.powerW = value / 1000.0;  // milliwatts
    gpus.push_back(gpu);
  }
  return gpus;
}

}  // namespace tw::sysmon
