#pragma once
// How a sweep shares the machine among its trials: how many run at once (P), which cores each
// may use (CPU affinity, so trials never migrate onto each other's cores) and, on a GPU machine,
// which GPUs. Processes x threads never exceeds the cores: every trial rank gets at least one
// core of its own, and its worker sizes LibTorch's and OpenBLAS's threads to its affinity.
//
//   CorePlan plan = planCores({.cpus = allowedCpus(), .ranksPerTrial = 1, .convolutional = false});
//   plan.slots[0].cpus;   // {0}, and {1} for the second trial slot
//   plan.reason;          // "parallel auto: 2 trials x 1 core (dense model: ...)"

#include <cstdint>
#include <string>
#include <vector>

namespace tw::cli {

struct CoreRequest {
  std::vector<int> cpus;        // the cores this process may use (its affinity)
  int gpuCount = 0;             // GPUs the trials train on; 0 = CPU only
  int parallel = 0;             // trials at once as the sweep asks; 0 = auto
  int ranksPerTrial = 1;        // distributed.nproc_per_node of the base run
  bool convolutional = false;   // the base model has a convolution (the thread plan's rule)
  int budgetTrials = 0;         // never more slots than trials to run; 0 = no limit
  double trialMemoryBytes = 0;  // the validator's estimate for one trial; 0 = unknown
  double hostMemoryBytes = 0;   // MemTotal; 0 = unknown
};

struct TrialSlot {
  std::vector<int> cpus;  // the trial's CPU affinity
  std::vector<int> gpus;  // its CUDA_VISIBLE_DEVICES, one per rank; empty on the CPU
};

struct CorePlan {
  std::vector<TrialSlot> slots;  // one per trial that may run at once (P = slots.size())
  int coresPerTrial = 1;
  std::string reason;            // printed by `torchwright sweep`
};

CorePlan planCores(const CoreRequest &request);

// The CPU ids in this process's affinity mask, in order.
std::vector<int> allowedCpus();

// "0-3,6" for a list of CPU ids (what taskset prints).
std::string cpuListText(const std::vector<int> &cpus);

}  // namespace tw::cli
