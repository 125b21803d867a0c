#include "tracking/store.h"

#include "tracking/run_rows.h"
#include "tracking/schema.h"
#include "tracking/sql.h"
#include "tracking/state_table.h"
#include "tracking/store_location.h"
#include "tracking/tracking_log.h"

#include <fcntl.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

namespace tw::tracking {

namespace {

bool isTerminal(RunStatus status) { return findState(runStates(), runStatusName(status))->ended; }

// "<experiment>-<n>" with n one past the runs it already has; skips names still taken, which
// happens once runs have been deleted.
std::string generatedRunName(sql::Connection *db, int64_t experimentId, const std::string &experiment) {
  const std::string operation = "naming the new run";
  sql::Statement count(db, "SELECT COUNT(*) FROM runs WHERE experiment_id = ?", operation);
  count.bindInt64(1, experimentId);
  int64_t n = count.step() ? count.int64(0) + 1 : 1;
  sql::Statement taken(db, "SELECT 1 FROM runs WHERE experiment_id = ? AND name = ?", operation);
  for (;; ++n) {
    std::string name = experiment + "-" + std::to_string(n);
    taken.reset();
    taken.bindInt64(1, experimentId).bindText(2, name);
    if (!taken.step()) return name;
  }
}

// `name`, else the first of name-2, name-3, ... that no run in the workspace has (a run is named
// on the command line by its name, across experiments).
std::string freeRunName(sql::Connection *db, const std::string &name) {
  sql::Statement taken(db, "SELECT 1 FROM runs WHERE name = ?", "naming the new run");
  std::string candidate = name;
  for (int n = 2;; ++n) {
    taken.reset();
    taken.bindText(1, candidate);
    if (!taken.step()) return candidate;
    candidate = name + "-" + std::to_string(n);
  }
}

}  // namespace

Store::Store(std::string location) : m_path(std::move(location)) { m_replacedEpoch = registerConnection(m_path); }

Store::~Store() {
  m_connection.reset();
  unregisterConnection(m_path, m_replacedEpoch);
}

std::unique_ptr<Store> Store::open(const std::string &location) {
  const StoreLocation where = StoreLocation::parse(location);
  std::unique_ptr<Store> store(new Store(location));
  store->m_sqlite = where.isSqlite();
  store->m_connection =
      where.isSqlite() ? sql::openSqlite(where.target()) : sql::openPostgres(where.target(), where.shown());
  store->m_db = store->m_connection.get();
  schema::migrate(store->m_db);
  if (store->m_sqlite) store->replacedFiles();  // notes the files just opened
  return store;
}

const std::string &Store::shownLocation() const { return m_db->shownLocation(); }

int Store::schemaVersion() const { return schema::readVersion(m_db); }

int Store::currentSchemaVersion() { return schema::currentVersion(); }

int64_t Store::keyId(const std::string &key) {
  auto cached = m_keyCache.find(key);
  if (cached != m_keyCache.end()) return cached->second;
  const std::string operation = "interning metric key '" + key + "'";
  sql::Statement insert(m_db, "INSERT INTO metric_keys(key) VALUES(?) ON CONFLICT(key) DO NOTHING", operation);
  insert.bindText(1, key).run();
  sql::Statement query(m_db, "SELECT id FROM metric_keys WHERE key = ?", operation);
  query.bindText(1, key);
  if (!query.step()) throw TrackingError(operation + ": the key vanished after its insert");
  const int64_t id = query.int64(0);
  m_keyCache.emplace(key, id);
  return id;
}

int64_t Store::ensureExperiment(const std::string &name) {
  sql::Transaction tx(m_db, "adding experiment '" + name + "'");
  const int64_t id = experimentIdFor(m_db, name, nowMs());
  tx.commit();
  return id;
}

RunRecord Store::createRun(const NewRun &newRun) {
  const std::string experiment = newRun.experiment.empty() ? std::string("default") : newRun.experiment;
  const std::string operation = "creating a run in experiment '" + experiment + "'";
  const int64_t now = nowMs();
  sql::Transaction tx(m_db, operation);
  const int64_t experimentId = experimentIdFor(m_db, experiment, now);
  // Under the write lock, so two runs launched at once with one name still get two.
  const std::string name = newRun.name.empty()   ? generatedRunName(m_db, experimentId, experiment)
                           : newRun.uniqueName ? freeRunName(m_db, newRun.name)
                                               : newRun.name;
  sql::Statement insert(m_db,
                        "INSERT INTO runs(uuid, experiment_id, name, status, created_ms, updated_ms, config_yaml, "
                        "config_hash, seed, data_fingerprint, library_versions, host, hardware, run_dir) "
                        "VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                        operation);
  const bool ownId = newRun.uuid.size() == 32 && newRun.uuid.find_first_not_of("0123456789abcdef") == std::string::npos;
  if (!newRun.uuid.empty() && !ownId)
    throw TrackingError(operation + ": a run id is 32 lowercase hex digits, not '" + newRun.uuid + "'");
  const std::string uuid = ownId ? newRun.uuid : randomUuid();
  const std::string runDir = newRun.runsRoot.empty() ? std::string() : newRun.runsRoot + "/" + uuid;
  insert.bindText(1, uuid)
      .bindInt64(2, experimentId)
      .bindText(3, name)
      .bindText(4, runStatusName(RunStatus::Created))
      .bindInt64(5, now)
      .bindInt64(6, now)
      .bindText(7, newRun.configYaml)
      .bindText(8, newRun.configHash)
      .bindInt64(9, newRun.seed)
      .bindText(10, newRun.dataFingerprint)
      .bindText(11, newRun.libraryVersions)
      .bindText(12, newRun.host)
      .bindText(13, newRun.hardware)
      .bindText(14, runDir);
  if (!insert.step()) throw TrackingError(operation + ": the new run has no id");
  const int64_t id = insert.int64(0);
  insert.reset();
  tx.commit();
  auto created = run(id);
  if (!created) throw TrackingError(operation + ": the new run could not be read back");
  return *created;
}

namespace {

// The reserve is real blocks (fallocate), so that deleting it frees space on any file system;
// where fallocate is not supported, zeros are written. Best effort: a disk already full keeps
// no reserve, and training is no reason to fail over it.
void keepReserve(const std::string &path) {
  struct stat existing {};
  if (::stat(path.c_str(), &existing) == 0 && existing.st_size >= Store::kReserveBytes) return;
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) return;
  bool kept = ::posix_fallocate(fd, 0, Store::kReserveBytes) == 0;
  if (!kept) {
    const std::string zeros(64 * 1024, '\0');
    kept = true;
    for (int64_t at = 0; kept && at < Store::kReserveBytes; at += static_cast<int64_t>(zeros.size()))
      kept = ::pwrite(fd, zeros.data(), zeros.size(), at) == static_cast<ssize_t>(zeros.size());
  }
  ::close(fd);
  if (!kept) ::unlink(path.c_str());  // half a reserve holds space and promises nothing
}

}  // namespace

void Store::setStatus(int64_t runId, RunStatus status, const std::string &message) {
  try {
    writeStatus(runId, status, message);
  } catch (const TrackingError &e) {
    if (!m_sqlite || e.sqliteCode() != SQLITE_FULL || !isTerminal(status) || ::unlink(reservePath().c_str()) != 0) throw;
    trackingLog()->warn("the disk holding {} is full; its reserve is released to record how run {} ended", m_path,
                        runId);
    writeStatus(runId, status, message);
  }
  if (status == RunStatus::Running && m_sqlite) keepReserve(reservePath());
}

void Store::setImportedOutcome(int64_t runId, RunStatus status, int64_t startMs, int64_t endMs) {
  const std::string operation = "recording the imported run " + std::to_string(runId) + "'s outcome";
  sql::Transaction tx(m_db, operation);
  sql::Statement update(m_db,
                        "UPDATE runs SET status = ?1, start_ms = ?2, end_ms = ?3, "
                        "created_ms = CASE WHEN ?2 > 0 THEN ?2 ELSE created_ms END, updated_ms = ?4 WHERE id = ?5",
                        operation);
  update.bindText(1, runStatusName(status)).bindInt64(2, startMs).bindInt64(3, endMs).bindInt64(4, nowMs()).bindInt64(5, runId).run();
  if (update.changes() == 0) throw TrackingError(operation + ": no run with id " + std::to_string(runId));
  tx.commit();
}

void Store::writeStatus(int64_t runId, RunStatus status, const std::string &message) {
  const std::string operation = "setting the status of run " + std::to_string(runId) + " to " + runStatusName(status);
  const int64_t now = nowMs();
  const bool running = status == RunStatus::Running;
  const bool terminal = isTerminal(status);
  sql::Transaction tx(m_db, operation);
  {
    sql::Statement current(m_db, "SELECT status FROM runs WHERE id = ?", operation);
    current.bindInt64(1, runId);
    if (!current.step()) throw TrackingError(operation + ": no run with id " + std::to_string(runId));
    const std::string problem =
        transitionProblem(runStates(), "run " + std::to_string(runId), current.text(0), runStatusName(status));
    if (!problem.empty()) throw TrackingError(operation + ": " + problem);
  }
  sql::Statement update(m_db,
                        "UPDATE runs SET status = ?1, status_message = ?2, updated_ms = ?3, "
                        "start_ms = CASE WHEN ?4 <> 0 AND start_ms = 0 THEN ?3 ELSE start_ms END, "
                        "end_ms = CASE WHEN ?5 <> 0 THEN ?3 WHEN ?4 <> 0 THEN 0 ELSE end_ms END, "
                        "stop_requested = CASE WHEN ?5 <> 0 THEN 0 ELSE stop_requested END "
                        "WHERE id = ?6",
                        operation);
  update.bindText(1, runStatusName(status))
      .bindText(2, message)
      .bindInt64(3, now)
      .bindInt64(4, running)
      .bindInt64(5, terminal)
      .bindInt64(6, runId)
      .run();
  if (update.changes() == 0) throw TrackingError(operation + ": no run with id " + std::to_string(runId));
  tx.commit();
}

void Store::setParams(int64_t runId, const std::map<std::string, std::string> &params) {
  const std::string operation = "storing the parameters of run " + std::to_string(runId);
  sql::Transaction tx(m_db, operation);
  touchRun(m_db, runId, nowMs(), operation);
  sql::Statement insert(m_db, "INSERT INTO params(run_id, key, value) VALUES(?, ?, ?) "
                                     "ON CONFLICT(run_id, key) DO UPDATE SET value = excluded.value", operation);
  insert.bindInt64(1, runId);
  for (const auto &[key, value] : params) insert.bindText(2, key).bindText(3, value).run();
  tx.commit();
}

void Store::setTag(int64_t runId, const std::string &key, const std::string &value) {
  const std::string operation = "tagging run " + std::to_string(runId) + " with '" + key + "'";
  sql::Transaction tx(m_db, operation);
  touchRun(m_db, runId, nowMs(), operation);
  sql::Statement insert(m_db, "INSERT INTO tags(run_id, key, value) VALUES(?, ?, ?) "
                                     "ON CONFLICT(run_id, key) DO UPDATE SET value = excluded.value", operation);
  insert.bindInt64(1, runId).bindText(2, key).bindText(3, value).run();
  tx.commit();
}

void Store::removeTag(int64_t runId, const std::string &key) {
  const std::string operation = "removing tag '" + key + "' from run " + std::to_string(runId);
  sql::Transaction tx(m_db, operation);
  touchRun(m_db, runId, nowMs(), operation);
  sql::Statement remove(m_db, "DELETE FROM tags WHERE run_id = ? AND key = ?", operation);
  remove.bindInt64(1, runId).bindText(2, key).run();
  tx.commit();
}

void Store::addArtifact(int64_t runId, const std::string &path, const std::string &kind, const std::string &sha256,
                        const std::string &details) {
  const std::string operation = "recording artifact '" + path + "' of run " + std::to_string(runId);
  const int64_t now = nowMs();
  sql::Transaction tx(m_db, operation);
  touchRun(m_db, runId, now, operation);
  sql::Statement insert(
      m_db, "INSERT INTO artifacts(run_id, path, kind, created_ms, sha256, details) VALUES(?, ?, ?, ?, ?, ?) "
      "ON CONFLICT(run_id, path) DO UPDATE SET kind = excluded.kind, created_ms = excluded.created_ms, "
      "sha256 = excluded.sha256, details = excluded.details",
      operation);
  insert.bindInt64(1, runId).bindText(2, path).bindText(3, kind).bindInt64(4, now).bindText(5, sha256).bindText(6, details).run();
  tx.commit();
}

void Store::removeArtifact(int64_t runId, const std::string &path) {
  const std::string operation = "removing artifact '" + path + "' of run " + std::to_string(runId);
  sql::Transaction tx(m_db, operation);
  touchRun(m_db, runId, nowMs(), operation);
  sql::Statement remove(m_db, "DELETE FROM artifacts WHERE run_id = ? AND path = ?", operation);
  remove.bindInt64(1, runId).bindText(2, path).run();
  tx.commit();
}

void Store::setDataFingerprint(int64_t runId, const std::string &fingerprint) {
  const std::string operation = "storing the data fingerprint of run " + std::to_string(runId);
  sql::Transaction tx(m_db, operation);
  touchRun(m_db, runId, nowMs(), operation);
  sql::Statement update(m_db, "UPDATE runs SET data_fingerprint = ? WHERE id = ?", operation);
  update.bindText(1, fingerprint).bindInt64(2, runId).run();
  tx.commit();
}

void Store::requestStop(int64_t runId) {
  const std::string operation = "requesting run " + std::to_string(runId) + " to stop";
  sql::Transaction tx(m_db, operation);
  touchRun(m_db, runId, nowMs(), operation);
  sql::Statement update(m_db, "UPDATE runs SET stop_requested = 1 WHERE id = ?", operation);
  update.bindInt64(1, runId).run();
  tx.commit();
}

void Store::requestCheckpoint(int64_t runId) {
  const std::string operation = "requesting a checkpoint of run " + std::to_string(runId);
  sql::Transaction tx(m_db, operation);
  touchRun(m_db, runId, nowMs(), operation);
  sql::Statement update(m_db, "UPDATE runs SET checkpoint_requested = 1 WHERE id = ?", operation);
  update.bindInt64(1, runId).run();
  tx.commit();
}

bool Store::takeCheckpointRequest(int64_t runId) {
  const std::string operation = "taking the checkpoint request of run " + std::to_string(runId);
  // One statement reads and clears: a request made meanwhile is never lost, nor taken twice.
  sql::Statement update(m_db, "UPDATE runs SET checkpoint_requested = 0 WHERE id = ? AND checkpoint_requested = 1",
                        operation);
  update.bindInt64(1, runId).run();
  return update.changes() > 0;
}

void Store::deleteRun(int64_t runId) {
  const std::string operation = "deleting run " + std::to_string(runId);
  sql::Transaction tx(m_db, operation);
  const int64_t now = nowMs();
  // A trial outlives its run (the study's history keeps its parameters and values): unlink it,
  // and bump it and its study so that Studio's poll sees the change.
  for (const char *statement :
       {"UPDATE studies SET updated_ms = ?2 WHERE id IN (SELECT study_id FROM trials WHERE run_id = ?1)",
        "UPDATE trials SET run_id = NULL, updated_ms = ?2 WHERE run_id = ?1"}) {
    sql::Statement unlink(m_db, statement, operation);
    unlink.bindInt64(1, runId).bindInt64(2, now).run();
  }
  // Children first, in one transaction; no ON DELETE CASCADE, so that a table with a foreign
  // key added later and forgotten here makes the delete fail instead of leaving orphans.
  for (const char *statement :
       {"DELETE FROM params WHERE run_id = ?", "DELETE FROM tags WHERE run_id = ?",
        "DELETE FROM metrics WHERE run_id = ?", "DELETE FROM latest_metrics WHERE run_id = ?",
        "DELETE FROM system_metrics WHERE run_id = ?", "DELETE FROM artifacts WHERE run_id = ?",
        "DELETE FROM runs WHERE id = ?"}) {
    sql::Statement remove(m_db, statement, operation);
    remove.bindInt64(1, runId).run();
  }
  tx.commit();
}

}  // namespace tw::tracking
