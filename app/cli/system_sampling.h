#pragma once
// A run's system metrics as its launcher records them (every 2 s): for each of the run's
// processes its CPU, resident memory and threads (and the host's memory, from one process per
// machine), and for each GPU a process trains on, NVML's utilisation, memory, temperature and
// power, all under that process's rank. The rank supervisor samples its ranks with it; the sweep
// driver samples each slot's serving worker for the trial it trains.

#include "core/sysmon/nvml.h"
#include "core/sysmon/process_sampler.h"
#include "tracking/run_record.h"

#include <cstdint>
#include <vector>

namespace tw::cli {

struct SampledProcess {
  int rank = 0;
  sysmon::ProcessSampler *sampler = nullptr;  // null: no process rows
  bool reportsHost = false;                   // records host_mem_percent
  int gpu = -1;                               // the physical GPU (NVML's index) it trains on; -1: none
};

// Rows stamped with the time of the call.
std::vector<tracking::SystemMetricRow> sampleSystem(const std::vector<SampledProcess> &processes, sysmon::Nvml &nvml);

// The physical GPU indices CUDA_VISIBLE_DEVICES lists, in order; empty when unset or not plain
// numbers (UUIDs), and then visible GPU i is taken to be GPU i.
std::vector<int> visibleGpus();

}  // namespace tw::cli
