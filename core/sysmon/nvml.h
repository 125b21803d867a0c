#pragma once
// NVIDIA GPUs as NVML sees them (utilisation, memory, temperature, power), loaded with dlopen of
// libnvidia-ml.so.1 at run time: nothing links against the driver, and a machine without one
// gets a clear "no NVIDIA GPU" answer instead of a missing-library error at start-up.
//
//   tw::sysmon::Nvml nvml;
//   if (!nvml.available()) show(nvml.why());
//   for (const auto &gpu : nvml.sample()) ...

#include <string>
#include <vector>

namespace tw::sysmon {

struct GpuSample {
  int index = 0;
  std::string name;
  double utilPercent = 0.0;
  double memoryUsedMb = 0.0, memoryTotalMb = 0.0;
  double temperatureC = 0.0;
  double powerW = 0.0;
};

class Nvml {
 public:
  Nvml();
  ~Nvml();
  Nvml(const Nvml &) = delete;
  Nvml &operator=(const Nvml &) = delete;

  bool available() const { return m_ready; }
  const std::string &why() const { return m_why; }  // when not available
  std::vector<GpuSample> sample() const;

 private:
  struct Api;
  void *m_library = nullptr;
  Api *m_api = nullptr;
  bool m_ready = false;
  std::string m_why;
};

}  // namespace tw::sysmon
