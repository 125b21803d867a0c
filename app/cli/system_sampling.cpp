#include "app/cli/system_sampling.h"

#include <cstdlib>
#include <string>

namespace tw::cli {

std::vector<tracking::SystemMetricRow> sampleSystem(const std::vector<SampledProcess> &processes, sysmon::Nvml &nvml) {
  const int64_t nowMs = tracking::nowMs();
  std::vector<tracking::SystemMetricRow> rows;
  bool anyGpu = false;
  for (const SampledProcess &p : processes) {
    anyGpu = anyGpu || p.gpu >= 0;
    if (!p.sampler) continue;
    const auto s = p.sampler->sample();
    if (!s.ok) continue;
    rows.push_back({"cpu_percent", p.rank, nowMs, s.cpuPercent});
    rows.push_back({"rss_mb", p.rank, nowMs, s.rssMb});
    rows.push_back({"threads", p.rank, nowMs, static_cast<double>(s.threads)});
    if (p.reportsHost) rows.push_back({"host_mem_percent", p.rank, nowMs, s.hostMemUsedPercent});
  }
  if (!anyGpu) return rows;
  for (const auto &gpu : nvml.sample()) {
    for (const SampledProcess &p : processes) {
      if (p.gpu != gpu.index) continue;
      rows.push_back({"gpu_util_percent", p.rank, nowMs, gpu.utilPercent});
      rows.push_back({"gpu_memory_mb", p.rank, nowMs, gpu.memoryUsedMb});
      rows.push_back({"gpu_temperature_c", p.rank, nowMs, gpu.temperatureC});
      rows.push_back({"gpu_power_w", p.rank, nowMs, gpu.powerW});
    }
  }
  return rows;
}

std::vector<int> visibleGpus() {
  const char *text = std::getenv("CUDA_VISIBLE_DEVICES");
  std::vector<int> out;
  if (!text || !*text) return out;
  std::string item;
  for (const char *c = text;; ++c) {
    if (*c == ',' || *c == '\0') {
      if (item.empty() || item.find_first_not_of("0123456789") != std::string::npos) return {};
      out.push_back(std::stoi(item));
      item.clear();
      if (*c == '\0') break;
    } else {
      item += *c;
    }
  }
  return out;
}

}  // namespace tw::cli
