#include "app/cli/core_plan.h"

#include <sched.h>

#include <algorithm>
#include <cmath>
#include <thread>

namespace tw::cli {

namespace {

// Cores one rank of a trial uses well. Measured on the 2-core machines (core/engine/threads.cpp):
// a dense model's time is in small GEMMs where a second BLAS thread gains little, so two trials
// on one core each finish more trials per hour than one on two; a convolutional model's own
// parallel loops keep scaling to about four threads.
int usefulCoresPerRank(bool convolutional) { return convolutional ? 4 : 1; }

std::string plural(int n, const char *word) { return std::to_string(n) + " " + word + (n == 1 ? "" : "s"); }

}  // namespace

std::vector<int> allowedCpus() {
  std::vector<int> out;
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0)
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
      if (CPU_ISSET(cpu, &set)) out.push_back(cpu);
  if (out.empty())
    for (int cpu = 0; cpu < static_cast<int>(std::max(1u, std::thread::hardware_concurrency())); ++cpu)
      out.push_back(cpu);
  return out;
}

std::string cpuListText(const std::vector<int> &cpus) {
  std::string out;
  for (size_t i = 0; i < cpus.size();) {
    size_t j = i;
    while (j + 1 < cpus.size() && cpus[j + 1] == cpus[j] + 1) ++j;
    out += (out.empty() ? "" : ",") + std::to_string(cpus[i]);
    if (j > i) out += "-" + std::to_string(cpus[j]);
    i = j + 1;
  }
  return out;
}

CorePlan planCores(const CoreRequest &request) {
  const int cores = std::max<int>(1, static_cast<int>(request.cpus.size()));
  const int ranks = std::max(1, request.ranksPerTrial);
  // Every rank needs a core of its own: this many trials fit at most.
  const int fitByCores = std::max(1, cores / ranks);
  const int fitByGpus = request.gpuCount > 0 ? std::max(1, request.gpuCount / ranks) : 0;
  int parallel = 0;
  std::string why;
  if (request.parallel > 0) {
    parallel = request.parallel;
    why = "parallel " + std::to_string(parallel);
  } else if (fitByGpus > 0) {
    parallel = fitByGpus;
    why = "parallel auto: one trial per " + std::string(ranks == 1 ? "GPU" : plural(ranks, "GPU") + " set") + " (" +
          plural(request.gpuCount, "GPU") + ")";
  } else {
    const int perTrial = usefulCoresPerRank(request.convolutional) * ranks;
    parallel = std::max(1, cores / perTrial);
    why = "parallel auto: " + std::string(request.convolutional
                                              ? "a convolutional model keeps gaining from threads up to ~4 per rank"
                                              : "a dense model gains little from a second thread, so more trials "
                                                "run side by side") +
          " (" + plural(cores, "core") + ", " + plural(ranks, "rank") + " per trial)";
  }
  std::vector<std::string> limits;
  if (parallel > fitByCores) {
    parallel = fitByCores;
    limits.push_back("at most " + std::to_string(fitByCores) + " with " + plural(cores, "core") + " and " +
                     plural(ranks, "rank") + " per trial, so processes never outnumber the cores");
  }
  if (fitByGpus > 0 && parallel > fitByGpus) {
    parallel = fitByGpus;
    limits.push_back("at most " + std::to_string(fitByGpus) + " with " + plural(request.gpuCount, "GPU"));
  }
  if (request.trialMemoryBytes > 0 && request.hostMemoryBytes > 0 && fitByGpus == 0) {
    // Leave a fifth of the memory to everything else on the machine.
    const int fitByMemory =
        std::max(1, static_cast<int>(std::floor(0.8 * request.hostMemoryBytes / request.trialMemoryBytes)));
    if (parallel > fitByMemory) {
      parallel = fitByMemory;
      limits.push_back("at most " + std::to_string(fitByMemory) + " by the memory estimate of one trial");
    }
  }
  if (request.budgetTrials > 0 && parallel > request.budgetTrials) {
    parallel = request.budgetTrials;
    limits.push_back("the budget is " + plural(request.budgetTrials, "trial"));
  }

  CorePlan plan;
  plan.coresPerTrial = std::max(1, cores / parallel);
  size_t next = 0;
  for (int slot = 0; slot < parallel; ++slot) {
    TrialSlot s;
    // The remainder goes to the first slots, one core each, so no core sits idle.
    const int count = cores / parallel + (slot < cores % parallel ? 1 : 0);
    for (int i = 0; i < count && next < request.cpus.size(); ++i) s.cpus.push_back(request.cpus[next++]);
    if (s.cpus.empty() && !request.cpus.empty()) s.cpus.push_back(request.cpus[size_t(slot) % request.cpus.size()]);
    if (fitByGpus > 0)
      for (int r = 0; r < ranks; ++r) s.gpus.push_back(slot * ranks + r);
    plan.slots.push_back(std::move(s));
  }
  plan.reason = why;
  for (const auto &l : limits) plan.reason += "; " + l;
  plan.reason += " -> " + plural(parallel, "trial") + " at a time, " + plural(plan.coresPerTrial, "core") + " each";
  if (fitByGpus > 0) plan.reason += " and " + plural(ranks, "GPU");
  return plan;
}

}  // namespace tw::cli
