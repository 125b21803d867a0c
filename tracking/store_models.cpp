// The model registry (schema 6): names, versions numbered under the write lock, stages.
#include "tracking/store.h"

#include "tracking/sql.h"


#include <algorithm>

namespace tw::tracking {

namespace {

#define TW_VERSION_COLUMNS                                                                                   \
  "m.name, v.version, v.stage, v.path, v.sha256, v.format, v.run_uuid, v.run_name, v.experiment, v.config_hash, " \
  "v.data_fingerprint, v.metrics, v.export_details, v.created_ms, v.updated_ms"

ModelVersionRecord versionRow(const sql::Statement &q) {
  ModelVersionRecord r;
  r.model = q.text(0);
  r.version = static_cast<int>(q.int64(1));
  r.stage = q.text(2);
  r.path = q.text(3);
  r.sha256 = q.text(4);
  r.format = q.text(5);
  r.runUuid = q.text(6);
  r.runName = q.text(7);
  r.experiment = q.text(8);
  r.configHash = q.text(9);
  r.dataFingerprint = q.text(10);
  r.metrics = q.text(11);
  r.exportDetails = q.text(12);
  r.createdMs = q.int64(13);
  r.updatedMs = q.int64(14);
  return r;
}

void checkStage(const std::string &stage, const std::string &operation) {
  const auto &stages = modelStages();
  if (std::find(stages.begin(), stages.end(), stage) == stages.end())
    throw TrackingError(operation + ": unknown stage '" + stage + "' (none, staging, production, archived)");
}

}  // namespace

ModelVersionRecord Store::registerModelVersion(const std::string &name, const NewModelVersion &v,
                                               const std::string &description) {
  const std::string operation = "registering a version of model '" + name + "'";
  sql::Transaction tx(m_db, operation);
  const int64_t now = nowMs();
  {
    sql::Statement insert(m_db,
                          "INSERT INTO models(name, description, created_ms, updated_ms) VALUES(?1, ?2, ?3, ?3) "
                          "ON CONFLICT(name) DO UPDATE SET updated_ms = ?3, "
                          "description = CASE WHEN ?2 = '' THEN models.description ELSE ?2 END",
                          operation);
    insert.bindText(1, name).bindText(2, description).bindInt64(3, now).run();
  }
  int64_t modelId = 0;
  {
    sql::Statement id(m_db, "SELECT id FROM models WHERE name = ?", operation);
    id.bindText(1, name);
    if (id.step()) modelId = id.int64(0);
  }
  int version = 1;
  {
    // Under BEGIN IMMEDIATE: two registrations at once get two numbers, none skipped.
    sql::Statement next(m_db, "SELECT COALESCE(MAX(version) + 1, 1) FROM model_versions WHERE model_id = ?", operation);
    next.bindInt64(1, modelId);
    if (next.step()) version = static_cast<int>(next.int64(0));
  }
  sql::Statement insert(
      m_db,
      "INSERT INTO model_versions(model_id, version, stage, run_uuid, run_name, experiment, path, sha256, format, "
      "config_hash, data_fingerprint, metrics, export_details, created_ms, updated_ms) "
      "VALUES(?1, ?2, 'none', ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?13)",
      operation);
  insert.bindInt64(1, modelId)
      .bindInt64(2, version)
      .bindText(3, v.runUuid)
      .bindText(4, v.runName)
      .bindText(5, v.experiment)
      .bindText(6, v.path)
      .bindText(7, v.sha256)
      .bindText(8, v.format)
      .bindText(9, v.configHash)
      .bindText(10, v.dataFingerprint)
      .bindText(11, v.metrics)
      .bindText(12, v.exportDetails)
      .bindInt64(13, now)
      .run();
  tx.commit();
  return *modelVersion(name, version);
}

std::vector<ModelRecord> Store::listModels() const {
  sql::Statement q(m_db,
                   "SELECT m.name, m.description, COUNT(v.id), COALESCE(MAX(v.version), 0), "
                   "COALESCE(MAX(CASE WHEN v.stage = 'production' THEN v.version END), 0), m.created_ms, m.updated_ms "
                   "FROM models m LEFT JOIN model_versions v ON v.model_id = m.id GROUP BY m.id ORDER BY m.name",
                   "listing registered models");
  std::vector<ModelRecord> out;
  while (q.step()) {
    out.push_back({q.text(0), q.text(1), static_cast<int>(q.int64(2)), static_cast<int>(q.int64(3)),
                   static_cast<int>(q.int64(4)), q.int64(5), q.int64(6)});
  }
  return out;
}

std::vector<ModelVersionRecord> Store::modelVersions(const std::string &name) const {
  sql::Statement q(m_db,
                   "SELECT " TW_VERSION_COLUMNS
                   " FROM model_versions v JOIN models m ON m.id = v.model_id WHERE m.name = ? ORDER BY v.version",
                   "reading the versions of model '" + name + "'");
  q.bindText(1, name);
  std::vector<ModelVersionRecord> out;
  while (q.step()) out.push_back(versionRow(q));
  return out;
}

std::optional<ModelVersionRecord> Store::modelVersion(const std::string &name, int version) const {
  sql::Statement q(m_db,
                   "SELECT " TW_VERSION_COLUMNS
                   " FROM model_versions v JOIN models m ON m.id = v.model_id WHERE m.name = ? AND v.version = ?",
                   "reading version " + std::to_string(version) + " of model '" + name + "'");
  q.bindText(1, name).bindInt64(2, version);
  if (!q.step()) return std::nullopt;
  return versionRow(q);
}

std::vector<ModelVersionRecord> Store::setModelStage(const std::string &name, int version, const std::string &stage,
                                                     bool archiveOthers) {
  const std::string operation = "moving version " + std::to_string(version) + " of model '" + name + "' to " + stage;
  checkStage(stage, operation);
  sql::Transaction tx(m_db, operation);
  const int64_t now = nowMs();
  sql::Statement update(m_db,
                        "UPDATE model_versions SET stage = ?1, updated_ms = ?2 WHERE version = ?3 AND model_id = "
                        "(SELECT id FROM models WHERE name = ?4)",
                        operation);
  update.bindText(1, stage).bindInt64(2, now).bindInt64(3, version).bindText(4, name).run();
  if (update.changes() == 0) throw TrackingError(operation + ": no such model version");
  if (archiveOthers && stage != "archived" && stage != "none") {
    sql::Statement others(m_db,
                          "UPDATE model_versions SET stage = 'archived', updated_ms = ?1 WHERE stage = ?2 AND "
                          "version != ?3 AND model_id = (SELECT id FROM models WHERE name = ?4)",
                          operation);
    others.bindInt64(1, now).bindText(2, stage).bindInt64(3, version).bindText(4, name).run();
  }
  sql::Statement touch(m_db, "UPDATE models SET updated_ms = ? WHERE name = ?", operation);
  touch.bindInt64(1, now).bindText(2, name).run();
  tx.commit();
  return modelVersions(name);
}

std::vector<std::pair<int64_t, Artifact>> Store::artifactsWithDigest(const std::string &sha256) const {
  sql::Statement q(m_db,
                   "SELECT run_id, path, kind, created_ms, sha256, details FROM artifacts WHERE sha256 = ? "
                   "ORDER BY created_ms DESC",
                   "finding the artifact with SHA-256 " + sha256);
  q.bindText(1, sha256);
  std::vector<std::pair<int64_t, Artifact>> out;
  while (q.step()) out.push_back({q.int64(0), {q.text(1), q.text(2), q.int64(3), q.text(4), q.text(5)}});
  return out;
}

}  // namespace tw::tracking
