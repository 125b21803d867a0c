#include "core/validate/machine.h"

#include "core/sysmon/host_info.h"
#include "core/sysmon/nvml.h"

#include <cstdlib>
#include <filesystem>
#include <sstream>

namespace fs = std::filesystem;

namespace tw::validate {

namespace {

// The GPUs the driver lists in /proc, for machines whose NVML library is missing.
int procGpuCount() {
  std::error_code ec;
  int count = 0;
  for (const auto &entry : fs::directory_iterator("/proc/driver/nvidia/gpus", ec)) {
    (void)entry;
    ++count;
  }
  return ec ? 0 : count;
}

// CUDA numbers only the GPUs CUDA_VISIBLE_DEVICES lists, in its order; "" hides them all.
// Entries that are not indices (GPU UUIDs) only limit the count.
void applyVisibleDevices(Machine &m) {
  const char *visible = std::getenv("CUDA_VISIBLE_DEVICES");
  if (!visible) return;
  std::vector<double> memory;
  int count = 0;
  bool indices = true;
  std::stringstream list(visible);
  for (std::string item; std::getline(list, item, ',');) {
    if (item.empty()) continue;
    char *end = nullptr;
    const long index = std::strtol(item.c_str(), &end, 10);
    if (*end != '\0' || index < 0) {
      indices = false;
    } else if (index >= m.gpuCount) {
      break;  // CUDA stops at the first index that does not exist
    } else if (static_cast<size_t>(index) < m.gpuMemoryBytes.size()) {
      memory.push_back(m.gpuMemoryBytes[static_cast<size_t>(index)]);
    }
    ++count;
  }
  m.gpuCount = std::min(m.gpuCount, count);
  m.gpuMemoryBytes = indices ? memory : std::vector<double>();
  if (m.gpuCount == 0) m.gpuWhy = "CUDA_VISIBLE_DEVICES hides every GPU";
}

bool envNumber(const char *name, double &out) {
  const char *text = std::getenv(name);
  if (!text || !*text) return false;
  char *end = nullptr;
  const double value = std::strtod(text, &end);
  if (*end != '\0' || value < 0) return false;
  out = value;
  return true;
}

}  // namespace

Machine detectMachine() {
  Machine m;
  {
    sysmon::Nvml nvml;
    if (nvml.available()) {
      for (const sysmon::GpuSample &gpu : nvml.sample()) m.gpuMemoryBytes.push_back(gpu.memoryTotalMb * 1024.0 * 1024.0);
      m.gpuCount = static_cast<int>(m.gpuMemoryBytes.size());
    } else {
      m.gpuCount = procGpuCount();
      m.gpuWhy = nvml.why();
    }
  }
  if (m.gpuCount == 0 && m.gpuWhy.empty()) m.gpuWhy = "no NVIDIA GPU found";
  applyVisibleDevices(m);
  m.hostMemoryBytes = sysmon::readHostInfo().memoryGiB * 1024.0 * 1024.0 * 1024.0;

  double gpus = 0, memoryMb = 0;
  if (envNumber("TORCHWRIGHT_TEST_GPUS", gpus)) {
    m.gpuCount = static_cast<int>(gpus);
    m.gpuMemoryBytes.assign(static_cast<size_t>(m.gpuCount), 0.0);
    m.gpuWhy = m.gpuCount ? std::string() : "no NVIDIA GPU (TORCHWRIGHT_TEST_GPUS=0)";
  }
  if (envNumber("TORCHWRIGHT_TEST_MEMORY_MB", memoryMb)) {
    m.hostMemoryBytes = memoryMb * 1024.0 * 1024.0;
    for (double &bytes : m.gpuMemoryBytes) bytes = memoryMb * 1024.0 * 1024.0;
  }
  return m;
}

}  // namespace tw::validate
