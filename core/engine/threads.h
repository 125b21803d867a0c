#pragma once
// Threads decide speed on small machines: LibTorch's intra-op threads on top of OpenBLAS's own
// oversubscribe the cores (5-20x slower). Every process sets both, explicitly.

#include <string>

namespace tw::engine {

struct ThreadPlan {
  int torchThreads = 1;
  int blasThreads = 1;
  std::string reason;  // why this plan, for the log and the run record
};

// requested > 0: that many LibTorch threads and 1 BLAS thread... see .cpp for the rule.
// requested == 0: automatic, from the core count and whether the model is convolutional.
ThreadPlan planThreads(int requested, bool convolutional, int cores);
// Applies the plan: at::set_num_threads, openblas_set_num_threads (found with dlsym), OMP.
void applyThreads(const ThreadPlan &plan);
int availableCores();  // honours the process's CPU affinity

}  // namespace tw::engine
