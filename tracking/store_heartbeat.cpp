// The store's liveness: launchers' and trials' heartbeats, and failing the runs and trials whose
// process fell silent (killed with SIGKILL, or its machine stopped), which nobody else would ever
// mark finished.
#include "tracking/store.h"

#include "tracking/run_rows.h"
#include "tracking/sql.h"
#include "tracking/state_table.h"
#include "tracking/study_rows.h"


#include <algorithm>
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
  if (update.changes() == 0) throw TrackingError(operation + ": no run with id " + std::to_string(runId));
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
  // Every state the table does not call ended: CREATED as well as RUNNING. A run is CREATED from
  // its recording until its worker starts, and whoever recorded it beats for it meanwhile (the
  // launcher) or starts it within seconds (a sweep's serving worker); one killed in between (a
  // launcher killed while its ranks load, a `launch --detach` whose caller vanished before it
  // detached) would otherwise leave a run that reads CREATED for ever.
  for (const StateRule &state : runStates()) {
    if (state.ended) continue;
    const std::string lastSign = sql::greatest(m_db, "heartbeat_ms, start_ms, updated_ms");
    sql::Statement query(m_db,
                         "SELECT id, " + lastSign + " FROM runs WHERE status = ? AND " + lastSign + " < ? ORDER BY id",
                         operation);
    query.bindText(1, state.name).bindInt64(2, now - maxSilenceMs);
    while (query.step()) silent.push_back({query.int64(0), query.int64(1)});
  }
  std::sort(silent.begin(), silent.end(), [](const Silent &a, const Silent &b) { return a.id < b.id; });

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

void Store::trialHeartbeat(int64_t studyId, int number) {
  const std::string operation =
      "recording a heartbeat of trial " + std::to_string(number) + " of study " + std::to_string(studyId);
  sql::Transaction tx(m_db, operation);
  sql::Statement update(m_db, "UPDATE trials SET heartbeat_ms = ? WHERE study_id = ? AND number = ?", operation);
  update.bindInt64(1, nowMs()).bindInt64(2, studyId).bindInt64(3, number).run();
  if (update.changes() == 0) {
    throw TrackingError(operation + ": study " + std::to_string(studyId) + " has no trial " + std::to_string(number));
  }
  tx.commit();
}

std::vector<TrialRecord> Store::failSilentTrials(int64_t studyId, int64_t maxSilenceMs) {
  const std::string operation = "failing the trials of study " + std::to_string(studyId) + " silent for over " +
                                std::to_string(maxSilenceMs) + " ms";
  sql::Transaction tx(m_db, operation);
  const int64_t now = nowMs();  // under the write lock, as in failSilentRuns

  struct Silent {
    int number;
    int64_t lastSignMs;
  };
  std::vector<Silent> silent;
  {
    const std::string lastSign = sql::greatest(m_db, "heartbeat_ms, start_ms, updated_ms");
    sql::Statement query(m_db,
                         "SELECT number, " + lastSign + " FROM trials WHERE study_id = ? AND state = 'RUNNING' AND " +
                             lastSign + " < ? ORDER BY number",
                         operation);
    query.bindInt64(1, studyId).bindInt64(2, now - maxSilenceMs);
    while (query.step()) silent.push_back({static_cast<int>(query.int64(0)), query.int64(1)});
  }
  if (silent.empty()) return {};

  touchStudy(m_db, studyId, now, operation);
  sql::Statement update(m_db,
                        "UPDATE trials SET state = 'FAILED', message = ?1, end_ms = ?2, updated_ms = ?2 "
                        "WHERE study_id = ?3 AND number = ?4",
                        operation);
  std::vector<TrialRecord> failed;
  for (const Silent &trial : silent) {
    update.bindText(1, silenceMessage(trial.lastSignMs, now))
        .bindInt64(2, now)
        .bindInt64(3, studyId)
        .bindInt64(4, trial.number)
        .run();
    if (auto record = this->trial(studyId, trial.number)) failed.push_back(std::move(*record));
  }
  tx.commit();
  return failed;
}

}  // namespace tw::tracking
