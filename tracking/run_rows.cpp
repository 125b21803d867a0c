#include "tracking/run_rows.h"

#include "tracking/sql.h"
#include "tracking/store.h"


#include <algorithm>
#include <cctype>
#include <cstdio>
#include <random>

namespace tw::tracking {

const char *const kRunSelect =
    "SELECT r.id, r.uuid, r.experiment_id, e.name, r.name, r.status, r.status_message, r.created_ms, "
    "r.start_ms, r.end_ms, r.updated_ms, r.config_yaml, r.config_hash, r.seed, r.data_fingerprint, "
    "r.library_versions, r.host, r.hardware, r.run_dir, r.heartbeat_ms "
    "FROM runs r JOIN experiments e ON e.id = r.experiment_id ";

RunRecord readRunRow(const sql::Statement &query) {
  RunRecord run;
  run.id = query.int64(0);
  run.uuid = query.text(1);
  run.experimentId = query.int64(2);
  run.experiment = query.text(3);
  run.name = query.text(4);
  // A status this build does not know (written by a newer one) reads as Created rather than
  // failing the whole listing.
  if (!parseRunStatus(query.text(5), &run.status)) run.status = RunStatus::Created;
  run.statusMessage = query.text(6);
  run.createdMs = query.int64(7);
  run.startMs = query.int64(8);
  run.endMs = query.int64(9);
  run.updatedMs = query.int64(10);
  run.configYaml = query.text(11);
  run.configHash = query.text(12);
  run.seed = query.int64(13);
  run.dataFingerprint = query.text(14);
  run.libraryVersions = query.text(15);
  run.host = query.text(16);
  run.hardware = query.text(17);
  run.runDir = query.text(18);
  run.heartbeatMs = query.int64(19);
  return run;
}

void touchRun(sql::Connection *db, int64_t runId, int64_t nowMs, const std::string &operation) {
  sql::Statement update(db, "UPDATE runs SET updated_ms = ? WHERE id = ?", operation);
  update.bindInt64(1, nowMs).bindInt64(2, runId).run();
  if (update.changes() == 0) throw TrackingError(operation + ": no run with id " + std::to_string(runId));
}

int64_t experimentIdFor(sql::Connection *db, const std::string &name, int64_t nowMs) {
  const std::string operation = "adding experiment '" + name + "'";
  sql::Statement insert(db, "INSERT INTO experiments(name, created_ms) VALUES(?, ?) ON CONFLICT(name) DO NOTHING", operation);
  insert.bindText(1, name).bindInt64(2, nowMs).run();
  sql::Statement query(db, "SELECT id FROM experiments WHERE name = ?", operation);
  query.bindText(1, name);
  if (!query.step()) throw TrackingError(operation + ": the experiment vanished after its insert");
  return query.int64(0);
}

std::string randomUuid() {
  std::random_device device;
  std::uniform_int_distribution<uint32_t> word;
  char text[33];
  std::snprintf(text, sizeof text, "%08x%08x%08x%08x", word(device), word(device), word(device), word(device));
  return text;
}

bool isHexText(const std::string &text) {
  return std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isxdigit(c) != 0; });
}

std::string lowercase(std::string text) {
  for (auto &c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

}  // namespace tw::tracking
