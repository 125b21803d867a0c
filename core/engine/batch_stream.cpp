#include "core/engine/batch_stream.h"

#include <chrono>

namespace tw::engine {

namespace {
constexpr uint64_t kAugmentStream = 0xa06;
}

BatchStream::BatchStream(const Split &split, const BatchOrder &order, int64_t firstBatch, const data::AugmentOptions &augment,
                         int64_t seed, int64_t epoch, int64_t prefetch)
    : m_split(split), m_order(order), m_augment(augment),
      m_epochSeed(mixSeed(mixSeed(static_cast<uint64_t>(seed), kAugmentStream), static_cast<uint64_t>(epoch))),
      m_next(firstBatch), m_capacity(prefetch) {
  if (m_capacity > 0) m_thread = std::thread([this] { produce(); });
}

BatchStream::~BatchStream() {
  {
    std::lock_guard<std::mutex> lock(m_mutex);
    m_stop = true;
  }
  m_changed.notify_all();
  if (m_thread.joinable()) m_thread.join();
}

Batch BatchStream::make(int64_t b) const {
  if (!m_augment.active()) return takeBatch(m_split, m_order, b);
  const data::BatchAugment augment{m_augment, mixSeed(m_epochSeed, static_cast<uint64_t>(b))};
  return takeBatch(m_split, m_order, b, &augment);
}

void BatchStream::produce() {
  // Gathering needs no autograd; the guard is per thread.
  torch::NoGradGuard noGrad;
  try {
    for (int64_t b = m_next; b < m_order.batches(); ++b) {
      Batch batch = make(b);
      std::unique_lock<std::mutex> lock(m_mutex);
      m_changed.wait(lock, [&] { return m_stop || static_cast<int64_t>(m_queue.size()) < m_capacity; });
      if (m_stop) return;
      m_queue.push_back(std::move(batch));
      m_changed.notify_all();
    }
  } catch (...) {
    std::lock_guard<std::mutex> lock(m_mutex);
    m_error = std::current_exception();
  }
  std::lock_guard<std::mutex> lock(m_mutex);
  m_done = true;
  m_changed.notify_all();
}

bool BatchStream::next(Batch &batch) {
  const auto start = std::chrono::steady_clock::now();
  auto waited = [&] {
    m_waitSeconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  if (m_capacity == 0) {
    if (m_next >= m_order.batches()) return false;
    batch = make(m_next++);
    waited();
    return true;
  }
  std::unique_lock<std::mutex> lock(m_mutex);
  m_changed.wait(lock, [&] { return !m_queue.empty() || m_done; });
  waited();
  if (m_queue.empty()) {
    if (m_error) std::rethrow_exception(m_error);
    return false;
  }
  batch = std::move(m_queue.front());
  m_queue.pop_front();
  m_changed.notify_all();
  return true;
}

}  // namespace tw::engine
