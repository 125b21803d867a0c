#include "tracking/study_rows.h"

#include "tracking/sql.h"
#include "tracking/store.h"


#include <map>

namespace tw::tracking {

const char *const kStudySelect =
    "SELECT s.id, s.uuid, s.name, s.experiment, s.sweep_yaml, s.sweep_file, s.directions, s.metrics, "
    "s.base_hash, s.status, s.stop_requested, s.created_ms, s.updated_ms, s.driver_heartbeat_ms, "
    "s.driver_ms "
    "FROM studies s ";

StudyRecord readStudyRow(const sql::Statement &query) {
  StudyRecord study;
  study.id = query.int64(0);
  study.uuid = query.text(1);
  study.name = query.text(2);
  study.experiment = query.text(3);
  study.sweepYaml = query.text(4);
  study.sweepFile = query.text(5);
  study.directions = query.text(6);
  study.metrics = query.text(7);
  study.baseHash = query.text(8);
  study.status = query.text(9);
  study.stopRequested = query.int64(10) != 0;
  study.createdMs = query.int64(11);
  study.updatedMs = query.int64(12);
  study.driverHeartbeatMs = query.int64(13);
  study.driverMs = query.int64(14);
  return study;
}

// A NULL run_id (no run) reads as 0.
const char *const kTrialSelect =
    "SELECT t.id, t.study_id, t.number, t.state, t.run_id, t.message, t.retry_of, t.created_ms, "
    "t.start_ms, t.end_ms, t.updated_ms, t.heartbeat_ms "
    "FROM trials t ";

TrialRecord readTrialRow(const sql::Statement &query) {
  TrialRecord trial;
  trial.id = query.int64(0);
  trial.studyId = query.int64(1);
  trial.number = static_cast<int>(query.int64(2));
  trial.state = query.text(3);
  trial.runId = query.int64(4);
  trial.message = query.text(5);
  trial.retryOf = static_cast<int>(query.int64(6));
  trial.createdMs = query.int64(7);
  trial.startMs = query.int64(8);
  trial.endMs = query.int64(9);
  trial.updatedMs = query.int64(10);
  trial.heartbeatMs = query.int64(11);
  return trial;
}

void attachTrialDetails(sql::Connection *db, std::vector<TrialRecord> &trials, const std::string &operation) {
  if (trials.empty()) return;
  // Three statements prepared once and stepped per trial: each lookup is a range of its table's
  // primary key, so the cost grows with the rows read, not with the study.
  sql::Statement params(db, "SELECT key, value FROM trial_params WHERE trial_id = ? ORDER BY key", operation);
  sql::Statement values(db, "SELECT objective, value FROM trial_values WHERE trial_id = ? ORDER BY objective",
                        operation);
  sql::Statement intermediate(db, "SELECT step, value FROM trial_intermediate WHERE trial_id = ? ORDER BY step",
                              operation);
  for (TrialRecord &trial : trials) {
    params.reset();
    params.bindInt64(1, trial.id);
    while (params.step()) trial.params.emplace(params.text(0), params.text(1));
    values.reset();
    values.bindInt64(1, trial.id);
    while (values.step()) {
      const auto objective = static_cast<size_t>(values.int64(0));
      if (trial.values.size() <= objective) trial.values.resize(objective + 1);
      trial.values[objective] = values.real(1);
    }
    intermediate.reset();
    intermediate.bindInt64(1, trial.id);
    while (intermediate.step()) trial.intermediate[intermediate.int64(0)] = intermediate.real(1);
  }
}

void touchStudy(sql::Connection *db, int64_t studyId, int64_t nowMs, const std::string &operation) {
  sql::Statement update(db, "UPDATE studies SET updated_ms = ? WHERE id = ?", operation);
  update.bindInt64(1, nowMs).bindInt64(2, studyId).run();
  if (update.changes() == 0) throw TrackingError(operation + ": no study with id " + std::to_string(studyId));
}

int64_t touchTrial(sql::Connection *db, int64_t studyId, int number, int64_t nowMs, const std::string &operation) {
  touchStudy(db, studyId, nowMs, operation);
  sql::Statement query(db, "SELECT id FROM trials WHERE study_id = ? AND number = ?", operation);
  query.bindInt64(1, studyId).bindInt64(2, number);
  if (!query.step()) {
    throw TrackingError(operation + ": study " + std::to_string(studyId) + " has no trial " + std::to_string(number));
  }
  const int64_t id = query.int64(0);
  sql::Statement update(db, "UPDATE trials SET updated_ms = ? WHERE id = ?", operation);
  update.bindInt64(1, nowMs).bindInt64(2, id).run();
  return id;
}

}  // namespace tw::tracking
