#pragma once
// Decoded examples kept in memory so that epochs after the first skip reading and decoding them
// (data.cache: memory): uint8 planes, never floats, within a byte budget (data.memory_mb). The
// examples kept are the store's first ones by number, as many as the budget holds, so what a run
// keeps does not depend on the order threads happen to read in; the rest are read from the store
// every time. Hits and misses are counted for the run's record.
//
//   ExampleCache cache(store, /*budgetBytes=*/1ull << 30);
//   cache.read(i, out);                 // from memory when kept, else from the store (and kept)
//   double rate = cache.hitRate();

#include "core/data/example_store.h"

#include <atomic>
#include <cstdint>
#include <memory>

namespace tw::data {

// data.memory_mb in bytes, or a quarter of this machine's physical memory when it is 0.
uint64_t memoryBudgetBytes(int64_t memoryMb);

class ExampleCache {
 public:
  // budgetBytes 0: nothing kept (data.cache: none), every read goes to the store.
  ExampleCache(std::shared_ptr<const ExampleStore> store, uint64_t budgetBytes);
  ExampleCache(const ExampleCache &) = delete;
  ExampleCache &operator=(const ExampleCache &) = delete;

  const ExampleStore &store() const { return *m_store; }
  // Thread-safe; throws as the store's read does.
  void read(int64_t i, uint8_t *out);
  int64_t capacity() const { return m_capacity; }  // examples the budget holds
  int64_t hits() const { return m_hits.load(); }
  int64_t misses() const { return m_misses.load(); }
  double hitRate() const;  // hits / reads; 0 before any read

 private:
  std::shared_ptr<const ExampleStore> m_store;
  int64_t m_exampleBytes = 0;
  int64_t m_capacity = 0;
  std::unique_ptr<uint8_t[]> m_bytes;                 // capacity x exampleBytes; pages touched when filled
  std::unique_ptr<std::atomic<uint8_t>[]> m_state;    // per kept example: empty, filling, ready
  std::atomic<int64_t> m_hits{0}, m_misses{0};
};

}  // namespace tw::data
