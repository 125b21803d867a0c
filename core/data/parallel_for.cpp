#include "core/data/parallel_for.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace tw::data {

int decodeWorkers(int64_t requested) {
  if (requested > 0) return static_cast<int>(requested);
  return std::max(1u, std::thread::hardware_concurrency());
}

void parallelFor(int64_t n, int workers, const std::function<void(int64_t)> &work) {
  const int threads = static_cast<int>(std::min<int64_t>(std::max(workers, 1), std::max<int64_t>(n, 1)));
  if (threads <= 1) {
    for (int64_t i = 0; i < n; ++i) work(i);
    return;
  }
  std::atomic<int64_t> next{0};
  std::atomic<int64_t> firstFailed{n};
  std::mutex mutex;
  std::exception_ptr error;
  auto run = [&] {
    for (int64_t i = next.fetch_add(1); i < n && i < firstFailed.load(); i = next.fetch_add(1)) {
      try {
        work(i);
      } catch (...) {
        std::lock_guard<std::mutex> lock(mutex);
        if (i < firstFailed.load()) {
          firstFailed = i;
          error = std::current_exception();
        }
      }
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(run);
  run();
  for (std::thread &thread : pool) thread.join();
  if (error) std::rethrow_exception(error);
}

}  // namespace tw::data
