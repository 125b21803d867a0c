// The store's liveness: launchers' heartbeats, and failing the runs whose launcher fell silent
// (killed with SIGKILL, or its machine stopped), which nobody else would ever mark finished.
#include "tracking/store.h"

#include "tracking/run_rows.h"
#include "tracking/sqlite_util.h"

#include <sqlite3.h>

#include <ctime>

namespace tw::tracking {

namespace {

std::string utcTimestamp(int64_t ms) {
  const auto seconds = static_cast<std::time_t>(ms / 1000);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%d %H:%M:%S", &utc);
  return text;
}

// UTC, since the person reading it may sit in another time zone than the machine that died.
std::string silenceMessage(int64_t lastSignMs, int64_t nowMs) {
  return "no heartbeat since " + utcTimestamp(lastSignMs) + " UTC (" + std::to_string((nowMs - lastSignMs) / 1000) +
         " s): its launcher was killed or its machine stopped";
}

}  // namespace

void Store::heartbeat(int64_t runId) {
  const std::string operation = "recording a heartbeat of run " + std::to_string(runId);
  sql::Transaction tx(m_db, operation);
  sql::Statement update(m_db, "UPDATE runs SET heartbeat_ms = ? WHERE id = ?", operation);
  update.bindInt64(1, nowMs()).bindInt64(2, runId).run();
  if (sqlite3_changes(m_db) == 0) throw TrackingError(operation + ": no run with id " + std::to_string(runId));
  tx.commit();
}

std::vector<RunRecord> Store::failSilentRuns(int64_t maxSilenceMs) {
  const std::string operation = "failing runs silent for over " + std::to_string(maxSilenceMs) + " ms";
  sql::Transaction tx(m_db, operation);
  // The clock is read under the write lock: a wait for the lock must not make a run that beat
  // meanwhile look silent.
  const int64_t now = nowMs();

  // start_ms and updated_ms count as signs of life too: a run from before schema 2, or one whose
  // launcher has not beaten yet, is judged by its latest write.
  struct Silent {
    int64_t id;
    int64_t lastSignMs;
  };
  std::vector<Silent> silent;
  {
    sql::Statement query(m_db,
                         "SELECT id, MAX(heartbeat_ms, start_ms, updated_ms) FROM runs "
                         "WHERE status = ? AND MAX(heartbeat_ms, start_ms, updated_ms) < ? ORDER BY id",
                         operation);
    query.bindText(1, runStatusName(RunStatus::Running)).bindInt64(2, now - maxSilenceMs);
    while (query.step()) silent.push_back({query.int64(0), query.int64(1)});
  }

  std::vector<RunRecord> failed;
  sql::Statement update(m_db,
                        "UPDATE runs SET status = ?1, status_message = ?2, end_ms = ?3, updated_ms = ?3, "
                        "stop_requested = 0 WHERE id = ?4",
                        operation);
  for (const Silent &run : silent) {
    update.bindText(1, runStatusName(RunStatus::Failed))
        .bindText(2, silenceMessage(run.lastSignMs, now))
        .bindInt64(3, now)
        .bindInt64(4, run.id)
        .run();
    // Read inside the transaction: the record is what the commit makes visible.
    if (auto record = this->run(run.id)) failed.push_back(std::move(*record));
  }
  tx.commit();
  return failed;
}

}  // namespace tw::tracking
