#include "core/engine/threads.h"

#include <dlfcn.h>
#include <sched.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <thread>

#include <ATen/Parallel.h>
#include <spdlog/spdlog.h>

namespace tw::engine {

int availableCores() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0) {
    int n = CPU_COUNT(&set);
    if (n > 0) return n;
  }
  return std::max(1u, std::thread::hardware_concurrency());
}

// Measured on the 2-core machines: a dense model's time is in GEMM, where OpenBLAS threads well
// and LibTorch's own threads only add contention (MLP: 80k samples/s with 1 LibTorch thread,
// 15k with 2 on top of OpenBLAS's 2). A convolutional model spends its time in LibTorch's own
// parallel loops (im2col, batch norm, pooling), so LibTorch gets the cores and OpenBLAS one.
ThreadPlan planThreads(int requested, bool convolutional, int cores) {
  cores = std::max(1, cores);
  ThreadPlan plan;
  if (requested > 0) {
    int n = std::min(requested, cores);
    if (convolutional) {
      plan = {n, 1, "threads=" + std::to_string(requested) + " requested (convolutional: BLAS 1)"};
    } else {
      plan = {1, n, "threads=" + std::to_string(requested) + " requested (dense: LibTorch 1, BLAS " +
                        std::to_string(n) + ")"};
    }
    return plan;
  }
  if (convolutional)
    return {cores, 1, "auto: convolutional model, LibTorch " + std::to_string(cores) + ", BLAS 1"};
  return {1, cores, "auto: dense model, LibTorch 1, BLAS " + std::to_string(cores)};
}

void applyThreads(const ThreadPlan &plan) {
  // The OpenBLAS that LibTorch loaded through libblas.so.3; absent with the reference BLAS.
  using SetThreads = void (*)(int);
  if (auto fn = reinterpret_cast<SetThreads>(dlsym(RTLD_DEFAULT, "openblas_set_num_threads"))) {
    fn(plan.blasThreads);
  } else {
    spdlog::warn("OpenBLAS not found in the process; BLAS threads left as they are");
  }
  at::set_num_threads(plan.torchThreads);
  setenv("OMP_NUM_THREADS", std::to_string(plan.torchThreads).c_str(), 1);
}

}  // namespace tw::engine
