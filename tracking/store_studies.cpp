// The store's studies: creating and finding them, the driver's claim and heartbeat, and
// Studio's Stop button. Trials are in store_trials.cpp.
#include "tracking/store.h"

#include "tracking/run_rows.h"
#include "tracking/sql.h"
#include "tracking/study_rows.h"


namespace tw::tracking {

namespace {

std::vector<StudyRecord> collectStudies(sql::Statement &query) {
  std::vector<StudyRecord> studies;
  while (query.step()) studies.push_back(readStudyRow(query));
  return studies;
}

}  // namespace

StudyRecord Store::createStudy(const NewStudy &newStudy) {
  const std::string operation = "creating study '" + newStudy.name + "'";
  if (newStudy.name.empty()) throw TrackingError("creating a study: a study needs a name");
  const std::string experiment = newStudy.experiment.empty() ? std::string("default") : newStudy.experiment;
  sql::Transaction tx(m_db, operation);
  // Under the write lock, like every clock reading for updated_ms here: a write that waited for
  // the lock must not commit a time older than what a poller has already passed.
  const int64_t now = nowMs();
  {
    // Checked under the write lock for a message that names the study; the UNIQUE key would
    // refuse it anyway.
    sql::Statement taken(m_db, "SELECT 1 FROM studies WHERE name = ?", operation);
    taken.bindText(1, newStudy.name);
    if (taken.step()) throw TrackingError(operation + ": a study of that name exists already in " + shownLocation());
  }
  sql::Statement insert(m_db,
                        "INSERT INTO studies(uuid, name, experiment, sweep_yaml, sweep_file, directions, metrics, "
                        "base_hash, status, created_ms, updated_ms) VALUES(?, ?, ?, ?, ?, ?, ?, ?, 'IDLE', ?, ?) RETURNING id",
                        operation);
  insert.bindText(1, randomUuid())
      .bindText(2, newStudy.name)
      .bindText(3, experiment)
      .bindText(4, newStudy.sweepYaml)
      .bindText(5, newStudy.sweepFile)
      .bindText(6, newStudy.directions)
      .bindText(7, newStudy.metrics)
      .bindText(8, newStudy.baseHash)
      .bindInt64(9, now)
      .bindInt64(10, now);
  if (!insert.step()) throw TrackingError(operation + ": the new study has no id");
  const int64_t id = insert.int64(0);
  insert.reset();
  tx.commit();
  auto created = study(id);
  if (!created) throw TrackingError(operation + ": the new study could not be read back");
  return *created;
}

std::optional<StudyRecord> Store::findStudy(const std::string &idPrefixOrName) const {
  if (idPrefixOrName.empty()) return std::nullopt;
  const std::string operation = "looking up study '" + idPrefixOrName + "'";
  const bool hex = isHexText(idPrefixOrName);
  const std::string uuidText = hex ? lowercase(idPrefixOrName) : idPrefixOrName;

  sql::Statement exact(m_db, (std::string(kStudySelect) + "WHERE s.uuid = ?").c_str(), operation);
  exact.bindText(1, uuidText);
  if (exact.step()) return readStudyRow(exact);

  // As for runs: a prefix of one study and the name of another are ambiguous.
  std::map<int64_t, StudyRecord> candidates;
  if (hex) {
    sql::Statement prefix(m_db, kStudySelect + ("WHERE " + sql::prefixMatch(m_db, "s.uuid") + " LIMIT 2"), operation);
    prefix.bindText(1, sql::prefixPattern(m_db, uuidText));
    for (auto &study : collectStudies(prefix)) candidates.emplace(study.id, std::move(study));
  }
  sql::Statement byName(m_db, (std::string(kStudySelect) + "WHERE s.name = ?").c_str(), operation);
  byName.bindText(1, idPrefixOrName);
  for (auto &study : collectStudies(byName)) candidates.emplace(study.id, std::move(study));
  if (candidates.size() != 1) return std::nullopt;
  return std::move(candidates.begin()->second);
}

std::optional<StudyRecord> Store::study(int64_t studyId) const {
  sql::Statement query(m_db, (std::string(kStudySelect) + "WHERE s.id = ?").c_str(),
                       "reading study " + std::to_string(studyId));
  query.bindInt64(1, studyId);
  if (!query.step()) return std::nullopt;
  return readStudyRow(query);
}

std::vector<StudyRecord> Store::listStudies() const {
  sql::Statement query(m_db, (std::string(kStudySelect) + "ORDER BY s.created_ms DESC, s.id DESC").c_str(),
                       "listing studies");
  return collectStudies(query);
}

std::vector<StudyRecord> Store::studiesChangedSince(int64_t updatedMs) const {
  sql::Statement query(m_db, (std::string(kStudySelect) + "WHERE s.updated_ms > ? ORDER BY s.updated_ms, s.id").c_str(),
                       "listing changed studies");
  query.bindInt64(1, updatedMs);
  return collectStudies(query);
}

void Store::setStudyStatus(int64_t studyId, const std::string &status) {
  const std::string operation = "setting the status of study " + std::to_string(studyId) + " to '" + status + "'";
  if (status != "RUNNING" && status != "IDLE") {
    throw TrackingError(operation + ": a study's status is RUNNING or IDLE");
  }
  const bool running = status == "RUNNING";
  sql::Transaction tx(m_db, operation);
  const int64_t now = nowMs();
  touchStudy(m_db, studyId, now, operation);
  sql::Statement update(m_db,
                        "UPDATE studies SET status = ?1, "
                        "driver_heartbeat_ms = CASE WHEN ?2 <> 0 THEN ?3 ELSE driver_heartbeat_ms END, "
                        "stop_requested = CASE WHEN ?2 <> 0 THEN stop_requested ELSE 0 END "
                        "WHERE id = ?4",
                        operation);
  update.bindText(1, status).bindInt64(2, running).bindInt64(3, now).bindInt64(4, studyId).run();
  tx.commit();
}

void Store::setStudySweepYaml(int64_t studyId, const std::string &sweepYaml) {
  const std::string operation = "recording the sweep of study " + std::to_string(studyId);
  sql::Transaction tx(m_db, operation);
  touchStudy(m_db, studyId, nowMs(), operation);
  sql::Statement update(m_db, "UPDATE studies SET sweep_yaml = ? WHERE id = ?", operation);
  update.bindText(1, sweepYaml).bindInt64(2, studyId).run();
  tx.commit();
}

void Store::studyHeartbeat(int64_t studyId, int64_t driverMs) {
  const std::string operation = "recording a heartbeat of study " + std::to_string(studyId);
  sql::Transaction tx(m_db, operation);
  const int64_t now = nowMs();
  touchStudy(m_db, studyId, now, operation);
  sql::Statement update(m_db,
                        "UPDATE studies SET driver_heartbeat_ms = ?1, "
                        "driver_ms = CASE WHEN ?2 >= 0 THEN ?2 ELSE driver_ms END WHERE id = ?3",
                        operation);
  update.bindInt64(1, now).bindInt64(2, driverMs).bindInt64(3, studyId).run();
  tx.commit();
}

void Store::requestStudyStop(int64_t studyId) {
  const std::string operation = "requesting study " + std::to_string(studyId) + " to stop";
  sql::Transaction tx(m_db, operation);
  touchStudy(m_db, studyId, nowMs(), operation);
  sql::Statement update(m_db, "UPDATE studies SET stop_requested = 1 WHERE id = ?", operation);
  update.bindInt64(1, studyId).run();
  tx.commit();
}

bool Store::studyStopRequested(int64_t studyId) const {
  const std::string operation = "reading the stop flag of study " + std::to_string(studyId);
  sql::Statement query(m_db, "SELECT stop_requested FROM studies WHERE id = ?", operation);
  query.bindInt64(1, studyId);
  if (!query.step()) throw TrackingError(operation + ": no study with id " + std::to_string(studyId));
  return query.int64(0) != 0;
}

}  // namespace tw::tracking
