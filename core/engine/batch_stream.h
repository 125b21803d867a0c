#pragma once
// One epoch's training batches, prepared ahead on a background thread into a bounded queue, so
// gathering and augmenting the next batch overlaps the current step. The time the training
// thread waits for a batch is measured: a high share of step time is an input bottleneck.
//
//   BatchStream stream(data.train, order, /*firstBatch=*/0, augment, seed, epoch, /*prefetch=*/4);
//   Batch b;
//   while (stream.next(b)) { ... }
//   double waited = stream.waitSeconds();

#include "core/engine/dataset.h"

#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>

namespace tw::engine {

class BatchStream {
 public:
  // prefetch 0: batches are made on the calling thread, in next().
  BatchStream(const Split &split, const BatchOrder &order, int64_t firstBatch, const data::AugmentOptions &augment, int64_t seed,
              int64_t epoch, int64_t prefetch);
  ~BatchStream();
  BatchStream(const BatchStream &) = delete;
  BatchStream &operator=(const BatchStream &) = delete;

  // The next batch in order; false after the last. Rethrows what the producer threw.
  bool next(Batch &batch);
  double waitSeconds() const { return m_waitSeconds; }

 private:
  Batch make(int64_t b) const;
  void produce();

  const Split &m_split;
  const BatchOrder &m_order;
  const data::AugmentOptions m_augment;
  uint64_t m_epochSeed;
  int64_t m_next;  // next batch index next() hands out (synchronous mode) or the producer makes
  int64_t m_capacity;
  std::deque<Batch> m_queue;
  bool m_done = false, m_stop = false;
  std::exception_ptr m_error;
  std::mutex m_mutex;
  std::condition_variable m_changed;
  std::thread m_thread;
  double m_waitSeconds = 0.0;
};

}  // namespace tw::engine
