#include "core/data/example_cache.h"

#include <unistd.h>

#include <algorithm>
#include <cstring>

namespace tw::data {

namespace {
enum : uint8_t { kEmpty = 0, kFilling = 1, kReady = 2 };
}

uint64_t memoryBudgetBytes(int64_t memoryMb) {
  if (memoryMb > 0) return static_cast<uint64_t>(memoryMb) << 20;
  const long pages = ::sysconf(_SC_PHYS_PAGES), pageSize = ::sysconf(_SC_PAGE_SIZE);
  return pages > 0 && pageSize > 0 ? static_cast<uint64_t>(pages) * static_cast<uint64_t>(pageSize) / 4 : (1ull << 30);
}

ExampleCache::ExampleCache(std::shared_ptr<const ExampleStore> store, uint64_t budgetBytes)
    : m_store(std::move(store)), m_exampleBytes(m_store->exampleBytes()) {
  if (m_exampleBytes > 0)
    m_capacity = std::min<int64_t>(m_store->count(), static_cast<int64_t>(budgetBytes / static_cast<uint64_t>(m_exampleBytes)));
  if (m_capacity > 0) {
    // Not value-initialised: untouched pages cost no memory until an example lands in them.
    m_bytes.reset(new uint8_t[static_cast<size_t>(m_capacity * m_exampleBytes)]);
    m_state.reset(new std::atomic<uint8_t>[static_cast<size_t>(m_capacity)]);
    for (int64_t i = 0; i < m_capacity; ++i) m_state[i].store(kEmpty, std::memory_order_relaxed);
  }
}

void ExampleCache::read(int64_t i, uint8_t *out) {
  const bool kept = i >= 0 && i < m_capacity;
  uint8_t *slot = kept ? m_bytes.get() + i * m_exampleBytes : nullptr;
  if (kept && m_state[i].load(std::memory_order_acquire) == kReady) {
    std::memcpy(out, slot, static_cast<size_t>(m_exampleBytes));
    m_hits.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  m_store->read(i, out);
  m_misses.fetch_add(1, std::memory_order_relaxed);
  uint8_t empty = kEmpty;
  // One thread fills a slot; another reading the same example meanwhile decodes its own copy.
  if (kept && m_state[i].compare_exchange_strong(empty, kFilling, std::memory_order_acq_rel)) {
    std::memcpy(slot, out, static_cast<size_t>(m_exampleBytes));
    m_state[i].store(kReady, std::memory_order_release);
  }
}

double ExampleCache::hitRate() const {
  const double reads = static_cast<double>(hits() + misses());
  return reads > 0 ? static_cast<double>(hits()) / reads : 0.0;
}

}  // namespace tw::data
