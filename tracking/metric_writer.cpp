#include "tracking/metric_writer.h"

#include "tracking/tensorboard_events.h"
#include "tracking/tensorboard_hparams.h"

#include <ctime>

#include "tracking/store.h"
#include "tracking/store_location.h"
#include "tracking/tracking_log.h"

#include <algorithm>
#include <chrono>
#include <exception>

namespace tw::tracking {

namespace {

template <typename Row>
void requeueInFront(std::vector<Row> *pending, std::vector<Row> &failed) {
  // In front, so that of two rows for one step the later one is still written last.
  failed.insert(failed.end(), std::make_move_iterator(pending->begin()), std::make_move_iterator(pending->end()));
  pending->swap(failed);
}
}  // namespace

int stopRetryDefaultMs(const std::string &location) {
  try {
    return StoreLocation::parse(location).isSqlite() ? 1000 : 30000;
  } catch (const TrackingError &) {
    return 1000;  // the writes fail at once anyway, naming the location's problem
  }
}

int nextRetryDelayMs(int lastDelayMs, const MetricWriterOptions &options) {
  return std::min(2 * std::max(lastDelayMs, 1), std::max(options.maxRetryDelayMs, options.flushIntervalMs));
}

MetricWriter::MetricWriter(std::string dbPath, int64_t runId, MetricWriterOptions options)
    : m_dbPath(std::move(dbPath)), m_runId(runId), m_options(options) {
  if (m_options.flushIntervalMs < 1) m_options.flushIntervalMs = 1;
  if (m_options.maxBatch == 0) m_options.maxBatch = 1;
  if (m_options.stopRetryMs < 0) m_options.stopRetryMs = stopRetryDefaultMs(m_dbPath);
  m_thread = std::thread(&MetricWriter::loop, this);
}

MetricWriter::~MetricWriter() {
  {
    std::lock_guard<std::mutex> lock(m_mutex);
    m_stop = true;
  }
  m_wake.notify_one();
  m_thread.join();
}

void MetricWriter::log(const std::string &key, int64_t step, double value) {
  const int64_t time = nowMs();
  try {
    std::lock_guard<std::mutex> lock(m_mutex);
    m_pending.push_back({key, step, value, time});
    ++m_enqueued;
    // Only on the crossing: after a failed write the queue stays above maxBatch, and a wake-up
    // per call would cost the training loop a context switch each.
    if (m_pending.size() == m_options.maxBatch) m_wake.notify_one();
  } catch (const std::exception &error) {
    // Out of memory: the training step matters more than one point.
    try {
      trackingLog()->error("dropping metric {} at step {}: {}", key, step, error.what());
    } catch (...) {
    }
  }
}

void MetricWriter::logSystem(const std::string &key, double value, int rank) {
  const int64_t time = nowMs();
  try {
    std::lock_guard<std::mutex> lock(m_mutex);
    m_pendingSystem.push_back({key, rank, time, value});
    ++m_enqueued;
  } catch (const std::exception &error) {
    try {
      trackingLog()->error("dropping system metric {}: {}", key, error.what());
    } catch (...) {
    }
  }
}

void MetricWriter::flush() {
  std::unique_lock<std::mutex> lock(m_mutex);
  const uint64_t target = m_enqueued;
  const uint64_t failures = m_failures;
  if (m_committed >= target) return;
  m_flushRequested = true;
  m_wake.notify_one();
  m_flushed.wait(lock, [&] { return m_committed >= target || m_failures != failures; });
}

std::string MetricWriter::lastError() const {
  std::lock_guard<std::mutex> lock(m_mutex);
  return m_lastError;
}

void MetricWriter::mirror(const std::vector<MetricRow> &rows) {
  if (m_options.tensorboardDir.empty() || m_eventsFailed) return;
  try {
    if (!m_events) {
      m_events = std::make_unique<TensorBoardWriter>(m_options.tensorboardDir);
      const double now = rows.empty() ? 0.0 : double(rows.front().timeMs) / 1000.0;
      if (!m_options.tensorboardGraph.empty()) m_events->graph(graphDef(m_options.tensorboardGraph), now);
      // No experiment summary: its metric list is not known yet, and TensorBoard, finding none,
      // builds the experiment from the sessions' params and scalars.
      if (!m_options.tensorboardHParams.empty())
        m_events->summary(hparamsSessionStart(m_options.tensorboardHParams, now), 0, now);
    }
    for (const MetricRow &row : rows) m_events->scalar(row.key, row.step, row.value, double(row.timeMs) / 1000.0);
    m_events->flush();
  } catch (const std::exception &e) {
    m_eventsFailed = true;
    trackingLog()->warn("run {}: no longer writing TensorBoard events to {}: {}", m_runId, m_options.tensorboardDir, e.what());
  }
}

void MetricWriter::loop() {
  const auto interval = std::chrono::milliseconds(m_options.flushIntervalMs);
  std::unique_ptr<Store> store;  // opened here: a Store is one connection, used by one thread
  bool retrying = false;
  std::string previousError;  // warn once per distinct error, not every interval
  auto retryDelay = interval;
  std::chrono::steady_clock::time_point stoppingSince{};  // the first failure after the stop request
  std::unique_lock<std::mutex> lock(m_mutex);
  for (;;) {
    if (retrying) {
      // After a failure wait, even when stopping or full: a lock held elsewhere, a full disk or a
      // server that is away needs time to come back.
      lock.unlock();
      std::this_thread::sleep_for(retryDelay);
      lock.lock();
    } else {
      m_wake.wait_for(lock, interval,
                      [&] { return m_stop || m_flushRequested || m_pending.size() >= m_options.maxBatch; });
    }
    m_flushRequested = false;
    if (m_pending.empty() && m_pendingSystem.empty()) {
      m_flushed.notify_all();
      if (m_stop) break;
      continue;
    }
    std::vector<MetricRow> rows;
    std::vector<SystemMetricRow> systemRows;
    rows.swap(m_pending);
    systemRows.swap(m_pendingSystem);
    lock.unlock();

    // Outside the lock: log() must never wait for the disk.
    uint64_t written = 0;
    std::string error;
    try {
      if (!store) store = Store::open(m_dbPath);
      if (!rows.empty()) {
        store->writeMetrics(m_runId, rows);
        mirror(rows);
        written += rows.size();
        rows.clear();
      }
      if (!systemRows.empty()) {
        store->writeSystemMetrics(m_runId, systemRows);
        written += systemRows.size();
        systemRows.clear();
      }
    } catch (const std::exception &e) {
      error = e.what();
      // Reopen next time: the file may have been moved, or the connection left in a bad state.
      store.reset();
    }
    const size_t unwritten = rows.size() + systemRows.size();
    if (!error.empty() && error != previousError)
      trackingLog()->warn("metrics of run {} not written yet ({} rows kept for a retry): {}", m_runId, unwritten, error);
    if (error.empty() && retrying) trackingLog()->info("metrics of run {} written again after a failure", m_runId);

    previousError = error;
    timespec cpu{};
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu) == 0)
      m_cpuSeconds.store(double(cpu.tv_sec) + double(cpu.tv_nsec) * 1e-9, std::memory_order_relaxed);

    lock.lock();
    m_committed += written;
    if (error.empty()) {
      m_lastError.clear();
      retrying = false;
      retryDelay = interval;
    } else {
      m_lastError = error;
      ++m_failures;
      if (retrying) retryDelay = std::chrono::milliseconds(nextRetryDelayMs(int(retryDelay.count()), m_options));
      retrying = true;
      requeueInFront(&m_pending, rows);
      requeueInFront(&m_pendingSystem, systemRows);
      const auto now = std::chrono::steady_clock::now();
      if (m_stop && stoppingSince == std::chrono::steady_clock::time_point{}) stoppingSince = now;
      if (m_stop && now - stoppingSince >= std::chrono::milliseconds(m_options.stopRetryMs)) {
        trackingLog()->error("giving up on {} metric rows of run {}: {}", m_pending.size() + m_pendingSystem.size(),
                             m_runId, error);
        m_pending.clear();
        m_pendingSystem.clear();
        m_flushed.notify_all();
        break;
      }
    }
    m_flushed.notify_all();
  }
}

}  // namespace tw::tracking
