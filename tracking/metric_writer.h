#pragma once
// Batches metrics on its own thread so that logging never stalls a training step:
// log() only appends to a queue; the thread commits every flushIntervalMs or maxBatch rows,
// one transaction per batch, over its own connection.
//
//   tw::tracking::MetricWriter writer(dbPath, run.id);
//   writer.log("train/loss", step, loss);
//   writer.flush();   // blocks until everything queued so far is committed

#include "tracking/run_record.h"
#include "tracking/tensorboard_graph.h"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace tw::tracking {

struct MetricWriterOptions {
  int flushIntervalMs = 250;
  size_t maxBatch = 10000;
  // After a failed write the next try waits twice as long as the last, from flushIntervalMs up to
  // this: a database server that is down is not asked four times a second.
  int maxRetryDelayMs = 5000;
  // A destructor that still cannot write keeps trying this long before it gives up on the rows
  // and logs how many; negative: stopRetryDefaultMs for the store.
  int stopRetryMs = -1;
  // tracking.tensorboard: every metric also goes to a TensorBoard event file in this folder, once
  // the store has it, for those who keep TensorBoard open. Best effort: a write that fails is
  // logged once and the event file given up; the store and the training go on. The file opens
  // with the model's graph and the run's params in the HParams plugin's layout (the session's
  // start only: the plugin would keep a session end even if the run went on, a resume say).
  std::string tensorboardDir;
  std::vector<GraphNode> tensorboardGraph;
  std::map<std::string, std::string> tensorboardHParams;
};

// How long a stopping writer keeps trying by default: 30 s for a database server (restarting, a
// failover), well inside the launcher's 60 s heartbeat timeout; 1 s for a SQLite file, whose
// errors (a full disk, a lock held for minutes) do not pass while a run ends.
int stopRetryDefaultMs(const std::string &location);

// The wait before the next try after a failed one: twice the last, at most maxRetryDelayMs;
// the first wait is flushIntervalMs.
int nextRetryDelayMs(int lastDelayMs, const MetricWriterOptions &options);

class TensorBoardWriter;  // tensorboard_events.h

class MetricWriter {
 public:
  MetricWriter(std::string dbPath, int64_t runId, MetricWriterOptions options = {});
  ~MetricWriter();  // flushes and joins
  MetricWriter(const MetricWriter &) = delete;
  MetricWriter &operator=(const MetricWriter &) = delete;

  void log(const std::string &key, int64_t step, double value);
  void logSystem(const std::string &key, double value, int rank = 0);
  // Blocks until every row queued before the call is committed, or until a write attempt
  // after the call has failed (then lastError() says why and the rows stay queued).
  void flush();
  // The last write error; empty when none, or once a retry has committed everything.
  // Errors are logged and the rows kept for the next try, so a transient "database is locked",
  // a full disk or a database server that is away loses nothing already queued; writes are keyed
  // by (run, key, step), so a batch written again after a lost reply is not written twice. Only a
  // destructor that still cannot write after stopRetryMs drops the rows, and logs how many.
  std::string lastError() const;
  int64_t runId() const { return m_runId; }
  // CPU time the writer thread has used so far: what tracking costs beside the training thread.
  double cpuSeconds() const { return m_cpuSeconds.load(std::memory_order_relaxed); }

 private:
  void loop();
  void mirror(const std::vector<MetricRow> &rows);  // to the event file, on the writer's thread
  std::string m_dbPath;
  int64_t m_runId;
  MetricWriterOptions m_options;
  mutable std::mutex m_mutex;
  std::condition_variable m_wake;
  std::condition_variable m_flushed;
  std::vector<MetricRow> m_pending;
  std::vector<SystemMetricRow> m_pendingSystem;
  std::atomic<double> m_cpuSeconds{0.0};
  uint64_t m_enqueued = 0;
  uint64_t m_committed = 0;
  uint64_t m_failures = 0;  // failed write attempts, so that flush() can return on one
  bool m_stop = false;
  bool m_flushRequested = false;
  std::string m_lastError;
  std::unique_ptr<TensorBoardWriter> m_events;  // the writer thread's own
  bool m_eventsFailed = false;
  std::thread m_thread;
};

}  // namespace tw::tracking
