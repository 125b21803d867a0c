#include "core/engine/allocator.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace tw::engine {

void keepStepAllocationsResident() {
#if defined(__GLIBC__)
  // 256 MiB: above any activation of the models this machine trains, below what would pin
  // memory that a person expects back after a large evaluation.
  constexpr int kThreshold = 256 * 1024 * 1024;
  mallopt(M_MMAP_THRESHOLD, kThreshold);
  mallopt(M_TRIM_THRESHOLD, kThreshold);
#endif
}

}  // namespace tw::engine
