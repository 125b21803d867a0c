// The store's trials: numbering, state, values, intermediate values and the link to a run.
// Every write bumps the trial's and its study's updated_ms, which Studio polls on. Liveness
// (trialHeartbeat, failSilentTrials) is in store_heartbeat.cpp.
#include "tracking/store.h"

#include "tracking/sql.h"
#include "tracking/state_table.h"
#include "tracking/study_rows.h"


namespace tw::tracking {

namespace {

void checkState(const std::string &state, const std::string &operation) {
  if (!findState(trialStates(), state)) {
    throw TrackingError(operation + ": unknown trial state '" + state + "' (expected " + stateNames(trialStates()) +
                        ")");
  }
}

std::vector<TrialRecord> collectTrials(sql::Connection *db, sql::Statement &query, const std::string &operation) {
  std::vector<TrialRecord> trials;
  while (query.step()) trials.push_back(readTrialRow(query));
  attachTrialDetails(db, trials, operation);
  return trials;
}

}  // namespace

TrialRecord Store::addTrial(int64_t studyId, const std::map<std::string, std::string> &params,
                            const std::string &state, int retryOf) {
  const std::string operation = "adding a trial to study " + std::to_string(studyId);
  checkState(state, operation);
  if (!findState(trialStates(), state)->initial)
    throw TrackingError(operation + ": a trial cannot start " + state + " (it starts WAITING or RUNNING)");
  sql::Transaction tx(m_db, operation);
  // The clock is read under the write lock here and in every write below: a write that waited
  // for the lock must not commit an updated_ms older than what Studio's poll has passed.
  const int64_t now = nowMs();
  touchStudy(m_db, studyId, now, operation);
  // Under BEGIN IMMEDIATE no other connection can insert between this read and the insert, so
  // every caller gets a different number and none is skipped; a deleted trial (none are, today)
  // would leave its number unused below MAX.
  int number = 0;
  {
    sql::Statement next(m_db, "SELECT COALESCE(MAX(number) + 1, 0) FROM trials WHERE study_id = ?", operation);
    next.bindInt64(1, studyId);
    if (next.step()) number = static_cast<int>(next.int64(0));
  }
  sql::Statement insert(m_db,
                        "INSERT INTO trials(study_id, number, state, retry_of, created_ms, start_ms, updated_ms) "
                        "VALUES(?1, ?2, ?3, ?4, ?5, CASE WHEN ?3 = 'RUNNING' THEN ?5 ELSE 0 END, ?5) RETURNING id",
                        operation);
  insert.bindInt64(1, studyId).bindInt64(2, number).bindText(3, state).bindInt64(4, retryOf).bindInt64(5, now);
  if (!insert.step()) throw TrackingError(operation + ": the new trial has no id");
  const int64_t trialId = insert.int64(0);
  insert.reset();
  sql::Statement param(m_db, "INSERT INTO trial_params(trial_id, key, value) VALUES(?, ?, ?)", operation);
  param.bindInt64(1, trialId);
  for (const auto &[key, value] : params) param.bindText(2, key).bindText(3, value).run();
  tx.commit();
  auto added = trial(studyId, number);
  if (!added) throw TrackingError(operation + ": the new trial could not be read back");
  return *added;
}

void Store::linkTrialRun(int64_t studyId, int number, int64_t runId) {
  const std::string operation = "linking trial " + std::to_string(number) + " of study " + std::to_string(studyId) +
                                " to run " + std::to_string(runId);
  sql::Transaction tx(m_db, operation);
  const int64_t trialId = touchTrial(m_db, studyId, number, nowMs(), operation);
  // NULL, not 0, for "no run": the foreign key then checks every real link.
  sql::Statement update(m_db, "UPDATE trials SET run_id = NULLIF(?, 0) WHERE id = ?", operation);
  update.bindInt64(1, runId).bindInt64(2, trialId).run();
  tx.commit();
}

void Store::setTrialState(int64_t studyId, int number, const std::string &state, const std::vector<double> &values,
                          const std::string &message) {
  const std::string operation = "setting trial " + std::to_string(number) + " of study " + std::to_string(studyId) +
                                " to " + state;
  checkState(state, operation);
  sql::Transaction tx(m_db, operation);
  const int64_t now = nowMs();
  const int64_t trialId = touchTrial(m_db, studyId, number, now, operation);
  {
    sql::Statement current(m_db, "SELECT state FROM trials WHERE id = ?", operation);
    current.bindInt64(1, trialId);
    current.step();
    const std::string problem = transitionProblem(
        trialStates(), "trial " + std::to_string(number) + " of study " + std::to_string(studyId), current.text(0), state);
    if (!problem.empty()) throw TrackingError(operation + ": " + problem);
  }
  const bool running = state == "RUNNING";
  sql::Statement update(m_db,
                        "UPDATE trials SET state = ?1, message = ?2, "
                        "start_ms = CASE WHEN ?3 <> 0 AND start_ms = 0 THEN ?4 ELSE start_ms END, "
                        "end_ms = CASE WHEN ?5 <> 0 THEN ?4 WHEN ?3 <> 0 THEN 0 ELSE end_ms END "
                        "WHERE id = ?6",
                        operation);
  update.bindText(1, state)
      .bindText(2, message)
      .bindInt64(3, running)
      .bindInt64(4, now)
      .bindInt64(5, findState(trialStates(), state)->ended)
      .bindInt64(6, trialId)
      .run();
  if (!values.empty()) {
    sql::Statement clear(m_db, "DELETE FROM trial_values WHERE trial_id = ?", operation);
    clear.bindInt64(1, trialId).run();
    sql::Statement insert(m_db, "INSERT INTO trial_values(trial_id, objective, value) VALUES(?, ?, ?)", operation);
    insert.bindInt64(1, trialId);
    for (size_t i = 0; i < values.size(); ++i) insert.bindInt64(2, int64_t(i)).bindDouble(3, values[i]).run();
  }
  tx.commit();
}

void Store::reportIntermediate(int64_t studyId, int number, int64_t step, double value) {
  const std::string operation = "reporting step " + std::to_string(step) + " of trial " + std::to_string(number) +
                                " of study " + std::to_string(studyId);
  sql::Transaction tx(m_db, operation);
  const int64_t trialId = touchTrial(m_db, studyId, number, nowMs(), operation);
  // A resumed trial reports a step again: the later value replaces the earlier.
  sql::Statement insert(m_db, "INSERT INTO trial_intermediate(trial_id, step, value) VALUES(?, ?, ?) "
                        "ON CONFLICT(trial_id, step) DO UPDATE SET value = excluded.value",
                        operation);
  insert.bindInt64(1, trialId).bindInt64(2, step).bindDouble(3, value).run();
  tx.commit();
}

std::optional<TrialRecord> Store::trial(int64_t studyId, int number) const {
  const std::string operation = "reading trial " + std::to_string(number) + " of study " + std::to_string(studyId);
  sql::Statement query(m_db, (std::string(kTrialSelect) + "WHERE t.study_id = ? AND t.number = ?").c_str(), operation);
  query.bindInt64(1, studyId).bindInt64(2, number);
  auto found = collectTrials(m_db, query, operation);
  if (found.empty()) return std::nullopt;
  return std::move(found.front());
}

std::vector<TrialRecord> Store::trials(int64_t studyId) const {
  const std::string operation = "reading the trials of study " + std::to_string(studyId);
  sql::Statement query(m_db, (std::string(kTrialSelect) + "WHERE t.study_id = ? ORDER BY t.number").c_str(), operation);
  query.bindInt64(1, studyId);
  return collectTrials(m_db, query, operation);
}

std::vector<TrialRecord> Store::trialsChangedSince(int64_t studyId, int64_t updatedMs) const {
  const std::string operation = "reading the changed trials of study " + std::to_string(studyId);
  sql::Statement query(
      m_db,
      (std::string(kTrialSelect) + "WHERE t.study_id = ? AND t.updated_ms > ? ORDER BY t.updated_ms, t.number").c_str(),
      operation);
  query.bindInt64(1, studyId).bindInt64(2, updatedMs);
  return collectTrials(m_db, query, operation);
}

std::optional<TrialRecord> Store::trialOfRun(int64_t runId) const {
  const std::string operation = "reading the trial of run " + std::to_string(runId);
  if (runId == 0) return std::nullopt;  // 0 means "no run", stored as NULL
  sql::Statement query(m_db, (std::string(kTrialSelect) + "WHERE t.run_id = ? ORDER BY t.id LIMIT 1").c_str(),
                       operation);
  query.bindInt64(1, runId);
  auto found = collectTrials(m_db, query, operation);
  if (found.empty()) return std::nullopt;
  return std::move(found.front());
}

}  // namespace tw::tracking
