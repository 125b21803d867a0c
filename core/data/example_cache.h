#pragma once
// Decoded examples kept so that epochs after the first skip reading and decoding them: uint8
// planes, never floats, in memory within a byte budget (data.cache: memory, data.memory_mb), or in
// a file on disk within the free space (data.cache: disk), for sets whose decoded pixels do not
// fit memory. The examples kept are the store's first ones by number, as many as the budget
// holds, so what a run keeps does not depend on the order threads happen to read in; the rest are
// read from the store every time. Hits and misses are counted for the run's record.
//
//   ExampleCache cache(store, /*budgetBytes=*/1ull << 30);
//   cache.read(i, out);                 // from memory when kept, else from the store (and kept)
//   double rate = cache.hitRate();
//
//   ExampleCache onDisk(store, diskCacheBudgetBytes(dir), CacheMedium::Disk, dir);
//
// The disk cache is a file without a name (O_TMPFILE) in `dir`: the kernel removes it when the
// process ends, however it ends, so no stale cache outlives its run or is read by another. Its
// reads go through the page cache, which the kernel gives back under pressure; the process holds
// one byte of state per example.

#include "core/data/example_store.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

namespace tw::data {

// data.memory_mb in bytes, or a quarter of this machine's physical memory when it is 0.
uint64_t memoryBudgetBytes(int64_t memoryMb);
// How data measured against that budget is described in a run's notes, MiB rounded up:
// "(12 MiB as floats, above data.memory_mb 4)" or "(3 MiB as floats, within data.memory_mb 4)".
std::string budgetText(uint64_t floatBytes, uint64_t budgetBytes);

enum class CacheMedium { Memory, Disk };

// What a disk cache in `dir` may take: the free space there less a reserve (a tenth of it, at
// least 1 GiB), so the cache never fills the disk that checkpoints and the database need.
uint64_t diskCacheBudgetBytes(const std::string &dir);

class ExampleCache {
 public:
  // budgetBytes 0: nothing kept (data.cache: none), every read goes to the store. Disk: throws
  // std::runtime_error naming `dir` when no file can be made there.
  ExampleCache(std::shared_ptr<const ExampleStore> store, uint64_t budgetBytes,
               CacheMedium medium = CacheMedium::Memory, const std::string &dir = {});
  ~ExampleCache();
  ExampleCache(const ExampleCache &) = delete;
  ExampleCache &operator=(const ExampleCache &) = delete;

  const ExampleStore &store() const { return *m_store; }
  // Thread-safe; throws as the store's read does.
  void read(int64_t i, uint8_t *out);
  int64_t capacity() const { return m_capacity; }  // examples the budget holds
  int64_t hits() const { return m_hits.load(); }
  int64_t misses() const { return m_misses.load(); }
  double hitRate() const;  // hits / reads; 0 before any read
  CacheMedium medium() const { return m_medium; }
  // Disk: examples that could not be written (the disk filled after the cache was sized); they
  // are read from the store every time, and the run goes on.
  int64_t writeFailures() const { return m_writeFailures.load(); }

 private:
  std::shared_ptr<const ExampleStore> m_store;
  int64_t m_exampleBytes = 0;
  int64_t m_capacity = 0;
  CacheMedium m_medium = CacheMedium::Memory;
  int m_fd = -1;                                      // disk: the nameless cache file
  std::unique_ptr<uint8_t[]> m_bytes;                 // memory: capacity x exampleBytes; pages touched when filled
  std::unique_ptr<std::atomic<uint8_t>[]> m_state;    // per kept example: empty, filling, ready
  std::atomic<int64_t> m_hits{0}, m_misses{0}, m_writeFailures{0};
};

}  // namespace tw::data
