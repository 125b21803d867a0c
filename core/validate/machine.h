#pragma once
// What this machine offers a run, known without LibTorch: how many NVIDIA GPUs a process may use
// and how much memory each device has. The validator compares a run's device and memory
// estimate with it before a run is recorded.
//
//   tw::validate::Machine m = tw::validate::detectMachine();
//   if (m.gpuCount == 0) say(m.gpuWhy);
//
// Tests make the answer deterministic with two environment variables, read only here:
// TORCHWRIGHT_TEST_GPUS=N (this many GPUs) and TORCHWRIGHT_TEST_MEMORY_MB=M (every device,
// host and GPUs, has M MiB). Nothing else sets them.

#include <string>
#include <vector>

namespace tw::validate {

struct Machine {
  int gpuCount = 0;                     // GPUs this process may use (CUDA_VISIBLE_DEVICES honoured)
  std::vector<double> gpuMemoryBytes;   // per visible GPU; empty when the driver does not say
  double hostMemoryBytes = 0.0;         // MemTotal; 0 when unknown
  std::string gpuWhy;                   // why there is no GPU, when gpuCount is 0
};

// NVML when the driver library loads, else the entries of /proc/driver/nvidia/gpus; host memory
// from /proc/meminfo. Then the test overrides above.
Machine detectMachine();

}  // namespace tw::validate
