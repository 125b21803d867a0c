#pragma once
// Reads the tracking database incrementally on its own thread, over its own connection, and
// hands plain structs to the UI thread through queued signals. The UI thread never waits on
// SQLite: a training process holding the write lock only delays the next update.
//
//   auto *poller = new DbPoller(dbPath, DbPollerOptions{.intervalMs = 250});
//   poller->moveToThread(&thread);
//   connect(&thread, &QThread::started, poller, &DbPoller::start);

#include "ui/workspace/poll_results.h"

#include <QObject>
#include <QString>

#include <exception>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>

class QTimer;

namespace tw::tracking {
class Store;
}

namespace tw::ui {

struct DbPollerOptions {
  // Two updates a second keep the dashboard live without measurable load on the writer.
  int intervalMs = 500;
  // Points per metric and poll: a run with millions of points arrives in bounded chunks,
  // the next one right after the previous was delivered.
  int maxPointsPerSeries = 20000;
  // Runs touched this recently are re-read even when their updatedMs looks unchanged: two
  // commits within the same millisecond carry the same stamp.
  int64_t recentOverlapMs = 1000;
  // The session calls the view stalled when no poll has finished for this long (longer than
  // any poll of a healthy database, shorter than the 10 s a lock may be waited for).
  int stallMs = 6000;
};

class DbPoller : public QObject {
  Q_OBJECT

 public:
  explicit DbPoller(std::string dbPath, DbPollerOptions options = {});
  ~DbPoller() override;

  // These run on the poller's thread: call them through a queued connection or
  // QMetaObject::invokeMethod with a functor.
  void start();
  // Follows the metrics `keys` of runId from the first step on; runId 0 watches nothing.
  void watchRun(quint64 token, int64_t runId, const std::vector<std::string> &keys);
  // The same for several runs at once (curves overlaid): one MetricsUpdate per run and poll.
  void watchRuns(quint64 token, const std::vector<int64_t> &runIds, const std::vector<std::string> &keys);
  void pollNow();
  // The next part of a poll sent in parts (RunsUpdate::more); the receiver asks once it has
  // taken in the last, so that the parts reach the UI thread on separate turns of its event loop.
  void sendMoreRuns();
  // At most this many runs per RunsUpdate: 50,000 runs in one update stopped Studio's window for
  // 0.8 s (bench_studio_startup), most of it freeing the update's copy after delivery.
  static constexpr size_t kRunsPerUpdate = 2000;

 Q_SIGNALS:
  void runsUpdated(const tw::ui::RunsUpdate &update);
  void metricsAppended(const tw::ui::MetricsUpdate &update);
  // Emitted when the state or its detail changes; detail is the database's own error text.
  void stateChanged(tw::ui::DbState state, const QString &detail);
  // After every poll that read the database, following whatever updates it sent: "nothing
  // changed" is then an observation (two of these after a write: a whole poll saw it), not a
  // guess after a sleep.
  void polled();
  // The database files changed under the connection (Store::replacedFiles says why) and it was
  // reopened; the runs are read again whole.
  void reopened(const QString &reason);

 private:
  bool ensureOpen();
  // Closes when the files under the connection are no longer the workspace's, and reopens as
  // soon as no other connection of the process holds them; false while that waits.
  bool reopenIfReplaced();
  void pollRuns();
  // Returns true when a series was cut at maxPointsPerSeries (more are waiting).
  bool pollMetrics();
  void fail(const std::exception &error);
  void setState(DbState state, const QString &detail);

  std::string m_dbPath;
  DbPollerOptions m_options;
  std::unique_ptr<tracking::Store> m_store;
  QTimer *m_timer = nullptr;
  bool m_followUpQueued = false;
  // Parts of a poll not sent yet; while any wait, runs are not polled again (a newer snapshot
  // must not overtake an older one of the same run).
  std::deque<RunsUpdate> m_unsentParts;
  int64_t m_partSentMs = 0;
  static constexpr int64_t kUnaskedPartMs = 1000;

  std::map<int64_t, int64_t> m_seenUpdatedMs;  // run id -> updatedMs last delivered
  int64_t m_newestUpdatedMs = -1;
  static constexpr int64_t kSilenceCheckMs = 10000;
  int64_t m_lastSilenceCheckMs = 0;

  quint64 m_watchToken = 0;
  // Watched run -> watched key -> last step delivered, in the order the runs were asked for.
  std::vector<std::pair<int64_t, std::map<std::string, int64_t>>> m_watched;

  QString m_replacedReason;  // set from closing a replaced connection until it is reopened
  DbState m_state = DbState::Connecting;
  QString m_detail;
};

}  // namespace tw::ui
