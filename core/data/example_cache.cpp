#include "core/data/example_cache.h"

#include <fcntl.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <stdexcept>

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

uint64_t diskCacheBudgetBytes(const std::string &dir) {
  struct statvfs fs {};
  if (::statvfs(dir.c_str(), &fs) != 0) return 0;
  const uint64_t free = static_cast<uint64_t>(fs.f_bavail) * static_cast<uint64_t>(fs.f_frsize);
  const uint64_t reserve = std::max<uint64_t>(1ull << 30, free / 10);
  return free > reserve ? free - reserve : 0;
}

std::string budgetText(uint64_t floatBytes, uint64_t budgetBytes) {
  const auto mib = [](uint64_t bytes) { return std::to_string((bytes + (1 << 20) - 1) >> 20); };
  return "(" + mib(floatBytes) + " MiB as floats, " + (floatBytes > budgetBytes ? "above" : "within") +
         " data.memory_mb " + mib(budgetBytes) + ")";
}

ExampleCache::ExampleCache(std::shared_ptr<const ExampleStore> store, uint64_t budgetBytes, CacheMedium medium,
                           const std::string &dir)
    : m_store(std::move(store)), m_exampleBytes(m_store->exampleBytes()), m_medium(medium) {
  if (m_exampleBytes > 0)
    m_capacity = std::min<int64_t>(m_store->count(), static_cast<int64_t>(budgetBytes / static_cast<uint64_t>(m_exampleBytes)));
  if (m_capacity <= 0) return;
  if (medium == CacheMedium::Disk) {
    m_fd = ::open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (m_fd < 0)
      throw std::runtime_error(dir + ": cannot make the decoded-image cache file there (" + std::strerror(errno) +
                               "; data.cache: disk needs a writable folder)");
  } else {
    // Not value-initialised: untouched pages cost no memory until an example lands in them.
    m_bytes.reset(new uint8_t[static_cast<size_t>(m_capacity * m_exampleBytes)]);
  }
  m_state.reset(new std::atomic<uint8_t>[static_cast<size_t>(m_capacity)]);
  for (int64_t i = 0; i < m_capacity; ++i) m_state[i].store(kEmpty, std::memory_order_relaxed);
}

ExampleCache::~ExampleCache() {
  if (m_fd >= 0) ::close(m_fd);
}

namespace {

// Whole transfers at `offset`, resumed after a signal or a short count; false on an error.
template <typename Io, typename Byte>
bool transfer(Io io, int fd, Byte *data, size_t size, uint64_t offset) {
  size_t done = 0;
  while (done < size) {
    const ssize_t n = io(fd, data + done, size - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

}  // namespace

void ExampleCache::read(int64_t i, uint8_t *out) {
  const bool kept = i >= 0 && i < m_capacity;
  const size_t size = static_cast<size_t>(m_exampleBytes);
  const uint64_t offset = static_cast<uint64_t>(i) * static_cast<uint64_t>(m_exampleBytes);
  if (kept && m_state[i].load(std::memory_order_acquire) == kReady) {
    if (m_fd < 0) {
      std::memcpy(out, m_bytes.get() + offset, size);
      m_hits.fetch_add(1, std::memory_order_relaxed);
      return;
    }
    if (transfer(::pread, m_fd, out, size, offset)) {
      m_hits.fetch_add(1, std::memory_order_relaxed);
      return;
    }
    // An unreadable cache block is only a miss: the store still has the example.
  }
  m_store->read(i, out);
  m_misses.fetch_add(1, std::memory_order_relaxed);
  uint8_t empty = kEmpty;
  // One thread fills a slot; another reading the same example meanwhile decodes its own copy.
  if (kept && m_state[i].compare_exchange_strong(empty, kFilling, std::memory_order_acq_rel)) {
    if (m_fd < 0) {
      std::memcpy(m_bytes.get() + offset, out, size);
    } else if (!transfer(::pwrite, m_fd, static_cast<const uint8_t *>(out), size, offset)) {
      // The disk filled after the cache was sized: this example stays uncached (the state keeps
      // it from being tried again) and the run goes on reading it from the store.
      m_writeFailures.fetch_add(1, std::memory_order_relaxed);
      return;
    }
    m_state[i].store(kReady, std::memory_order_release);
  }
}

double ExampleCache::hitRate() const {
  const double reads = static_cast<double>(hits() + misses());
  return reads > 0 ? static_cast<double>(hits()) / reads : 0.0;
}

}  // namespace tw::data
