#pragma once
// Work over indices 0..n-1 on `workers` threads, each index done exactly once by one thread, so
// results written per index are the same whatever the thread count. The first error by index is
// rethrown after every thread has stopped (the same message as one thread would give).
//
//   parallelFor(items.size(), decodeWorkers(options.workers), [&](int64_t i) { decode(i); });

#include <cstdint>
#include <functional>

namespace tw::data {

// `requested` threads, or one per core when it is 0 (never more than `n` are started).
int decodeWorkers(int64_t requested);

void parallelFor(int64_t n, int workers, const std::function<void(int64_t)> &work);

}  // namespace tw::data
