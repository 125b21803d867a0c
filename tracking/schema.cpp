#include "tracking/schema.h"

#include "tracking/sql.h"
#include "tracking/store.h"


#include <regex>
#include <string>
#include <vector>

namespace tw::tracking::schema {

namespace {

// Append only: a script, once released, never changes, since files in the field already ran it.
const std::vector<const char *> kMigrations = {
    // 1: experiments, runs, params, tags, metrics with a latest-value table, system metrics,
    // artifacts. Child tables lead with run_id in their key, so a run's rows are one range
    // and the foreign-key checks on delete use the key instead of a scan. The metric tables
    // carry no foreign key: every batch already checks its run under the write lock (the
    // updated_ms bump), and the per-row check cost 27% of the write throughput.
    R"sql(
CREATE TABLE experiments(
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  created_ms INTEGER NOT NULL
);
CREATE TABLE runs(
  id INTEGER PRIMARY KEY,
  uuid TEXT NOT NULL UNIQUE,
  experiment_id INTEGER NOT NULL REFERENCES experiments(id),
  name TEXT NOT NULL,
  status TEXT NOT NULL,
  status_message TEXT NOT NULL DEFAULT '',
  created_ms INTEGER NOT NULL,
  start_ms INTEGER NOT NULL DEFAULT 0,
  end_ms INTEGER NOT NULL DEFAULT 0,
  updated_ms INTEGER NOT NULL,
  config_yaml TEXT NOT NULL DEFAULT '',
  config_hash TEXT NOT NULL DEFAULT '',
  seed INTEGER NOT NULL DEFAULT 0,
  data_fingerprint TEXT NOT NULL DEFAULT '',
  library_versions TEXT NOT NULL DEFAULT '',
  host TEXT NOT NULL DEFAULT '',
  hardware TEXT NOT NULL DEFAULT '',
  run_dir TEXT NOT NULL DEFAULT '',
  stop_requested INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX runs_updated ON runs(updated_ms);
CREATE INDEX runs_experiment ON runs(experiment_id);
CREATE INDEX runs_name ON runs(name);
CREATE TABLE params(
  run_id INTEGER NOT NULL REFERENCES runs(id),
  key TEXT NOT NULL,
  value TEXT NOT NULL,
  PRIMARY KEY(run_id, key)
) WITHOUT ROWID;
CREATE TABLE tags(
  run_id INTEGER NOT NULL REFERENCES runs(id),
  key TEXT NOT NULL,
  value TEXT NOT NULL,
  PRIMARY KEY(run_id, key)
) WITHOUT ROWID;
CREATE TABLE metric_keys(
  id INTEGER PRIMARY KEY,
  key TEXT NOT NULL UNIQUE
);
CREATE TABLE metrics(
  run_id INTEGER NOT NULL,
  key_id INTEGER NOT NULL,
  step INTEGER NOT NULL,
  value REAL,
  time_ms INTEGER NOT NULL,
  PRIMARY KEY(run_id, key_id, step)
) WITHOUT ROWID;
CREATE TABLE latest_metrics(
  run_id INTEGER NOT NULL,
  key_id INTEGER NOT NULL,
  step INTEGER NOT NULL,
  value REAL,
  time_ms INTEGER NOT NULL,
  PRIMARY KEY(run_id, key_id)
) WITHOUT ROWID;
CREATE TABLE system_metrics(
  run_id INTEGER NOT NULL,
  key_id INTEGER NOT NULL,
  rank INTEGER NOT NULL,
  time_ms INTEGER NOT NULL,
  value REAL,
  PRIMARY KEY(run_id, key_id, rank, time_ms)
) WITHOUT ROWID;
CREATE TABLE artifacts(
  run_id INTEGER NOT NULL REFERENCES runs(id),
  path TEXT NOT NULL,
  kind TEXT NOT NULL,
  created_ms INTEGER NOT NULL,
  PRIMARY KEY(run_id, path)
) WITHOUT ROWID;
)sql",
    // 2: the launcher's heartbeat, so that a run whose launcher was killed (SIGKILL, a crashed
    // machine) can be told from a live one and failed instead of reading RUNNING forever. Kept
    // apart from updated_ms, which the GUI polls on: a beat every few seconds must not make it
    // re-read every running run.
    R"sql(
ALTER TABLE runs ADD COLUMN heartbeat_ms INTEGER NOT NULL DEFAULT 0;
)sql",
    // 3: "Checkpoint now" from Studio, a flag like stop_requested that the worker takes (reads
    // and clears) when it writes the checkpoint.
    R"sql(
ALTER TABLE runs ADD COLUMN checkpoint_requested INTEGER NOT NULL DEFAULT 0;
)sql",
    // 4: studies and their trials (hyperparameter search). A trial's number is unique per study
    // and allocated under the write lock, so the UNIQUE key is a second guard, not the mechanism.
    // trials.run_id is NULL while a trial has no run; its foreign key makes deleteRun, which must
    // unlink the trial first, fail loudly if it ever forgets. The (study_id, updated_ms) and
    // studies(updated_ms) indices serve Studio's incremental poll; trials(run_id) serves
    // trialOfRun and deleteRun's unlinking.
    R"sql(
CREATE TABLE studies(
  id INTEGER PRIMARY KEY,
  uuid TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL UNIQUE,
  experiment TEXT NOT NULL,
  sweep_yaml TEXT NOT NULL DEFAULT '',
  sweep_file TEXT NOT NULL DEFAULT '',
  directions TEXT NOT NULL DEFAULT '',
  metrics TEXT NOT NULL DEFAULT '',
  base_hash TEXT NOT NULL DEFAULT '',
  status TEXT NOT NULL DEFAULT 'IDLE',
  stop_requested INTEGER NOT NULL DEFAULT 0,
  created_ms INTEGER NOT NULL,
  updated_ms INTEGER NOT NULL,
  driver_heartbeat_ms INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX studies_updated ON studies(updated_ms);
CREATE TABLE trials(
  id INTEGER PRIMARY KEY,
  study_id INTEGER NOT NULL REFERENCES studies(id),
  number INTEGER NOT NULL,
  state TEXT NOT NULL,
  run_id INTEGER REFERENCES runs(id),
  message TEXT NOT NULL DEFAULT '',
  retry_of INTEGER NOT NULL DEFAULT -1,
  created_ms INTEGER NOT NULL,
  start_ms INTEGER NOT NULL DEFAULT 0,
  end_ms INTEGER NOT NULL DEFAULT 0,
  updated_ms INTEGER NOT NULL,
  heartbeat_ms INTEGER NOT NULL DEFAULT 0,
  UNIQUE(study_id, number)
);
CREATE INDEX trials_updated ON trials(study_id, updated_ms);
CREATE INDEX trials_run ON trials(run_id);
CREATE TABLE trial_params(
  trial_id INTEGER NOT NULL REFERENCES trials(id),
  key TEXT NOT NULL,
  value TEXT NOT NULL,
  PRIMARY KEY(trial_id, key)
) WITHOUT ROWID;
CREATE TABLE trial_values(
  trial_id INTEGER NOT NULL REFERENCES trials(id),
  objective INTEGER NOT NULL,
  value REAL,
  PRIMARY KEY(trial_id, objective)
) WITHOUT ROWID;
CREATE TABLE trial_intermediate(
  trial_id INTEGER NOT NULL REFERENCES trials(id),
  step INTEGER NOT NULL,
  value REAL,
  PRIMARY KEY(trial_id, step)
) WITHOUT ROWID;
)sql",
    // 5: an artifact's SHA-256 (exported models: the file a registry entry or a deployment names
    // can be checked against what was exported). Empty for artifacts recorded without one.
    R"sql(
ALTER TABLE artifacts ADD COLUMN sha256 TEXT NOT NULL DEFAULT '';
)sql",
    // 6: the model registry. A registered model is a name; its versions (1, 2, ...) are exported
    // files with their SHA-256, a stage, and the lineage copied at registration (the run may be
    // deleted later; the version still says where it came from). Version numbers are allocated
    // under the write lock, as trial numbers are. artifacts.details: what an export was asked for
    // and what its check said (JSON), which registration copies.
    R"sql(
ALTER TABLE artifacts ADD COLUMN details TEXT NOT NULL DEFAULT '';
CREATE TABLE models(
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  description TEXT NOT NULL DEFAULT '',
  created_ms INTEGER NOT NULL,
  updated_ms INTEGER NOT NULL
);
CREATE TABLE model_versions(
  id INTEGER PRIMARY KEY,
  model_id INTEGER NOT NULL REFERENCES models(id),
  version INTEGER NOT NULL,
  stage TEXT NOT NULL DEFAULT 'none',
  run_uuid TEXT NOT NULL DEFAULT '',
  run_name TEXT NOT NULL DEFAULT '',
  experiment TEXT NOT NULL DEFAULT '',
  path TEXT NOT NULL,
  sha256 TEXT NOT NULL,
  format TEXT NOT NULL,
  config_hash TEXT NOT NULL DEFAULT '',
  data_fingerprint TEXT NOT NULL DEFAULT '',
  metrics TEXT NOT NULL DEFAULT '',
  export_details TEXT NOT NULL DEFAULT '',
  created_ms INTEGER NOT NULL,
  updated_ms INTEGER NOT NULL,
  UNIQUE(model_id, version)
);
)sql",
    // 7: the time sweep drivers have spent on a study, summed over its resumes, so that a
    // study's budget.minutes is the study's and not each driver session's.
    R"sql(
ALTER TABLE studies ADD COLUMN driver_ms INTEGER NOT NULL DEFAULT 0;
)sql",
};

// The scripts' SQLite types in PostgreSQL's words: 64-bit integers throughout (SQLite's INTEGER
// is 64 bits; milliseconds since 1970 overflow PostgreSQL's), identity keys for rowid aliases,
// and no WITHOUT ROWID (every PostgreSQL table is a heap with its primary key as an index).
std::string forDialect(const char *script, sql::Dialect dialect) {
  if (dialect == sql::Dialect::Sqlite) return script;
  std::string text = std::regex_replace(script, std::regex(R"(\bINTEGER PRIMARY KEY\b)"),
                                        "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY");
  text = std::regex_replace(text, std::regex(R"(\bINTEGER\b)"), "BIGINT");
  text = std::regex_replace(text, std::regex(R"(\bREAL\b)"), "DOUBLE PRECISION");
  return std::regex_replace(text, std::regex(R"(\)\s*WITHOUT ROWID)"), ")");
}

}  // namespace

int currentVersion() { return static_cast<int>(kMigrations.size()); }

int readVersion(sql::Connection *db) {
  if (!db->tableExists("schema_version")) return 0;
  sql::Statement query(db, "SELECT MAX(version) FROM schema_version", "reading the schema version");
  return query.step() ? static_cast<int>(query.int64(0)) : 0;
}

void migrate(sql::Connection *db) {
  // The common case, an up-to-date database, needs no write lock: readers (the GUI's poller)
  // open the store often.
  int version = readVersion(db);
  if (version == currentVersion()) return;

  sql::Transaction tx(db, "migrating the tracking database");
  // Read again under the lock: another process may have migrated the database meanwhile.
  version = readVersion(db);
  if (version > currentVersion()) {
    throw TrackingError("the tracking database " + db->shownLocation() + " has schema version " +
                        std::to_string(version) + ", newer than this build of Torchwright supports (version " +
                        std::to_string(currentVersion()) + "); open it with a newer Torchwright");
  }
  if (version == currentVersion()) return;
  db->exec("CREATE TABLE IF NOT EXISTS schema_version(version INTEGER NOT NULL)", "creating the schema_version table");
  for (int next = version + 1; next <= currentVersion(); ++next) {
    db->exec(forDialect(kMigrations[static_cast<size_t>(next - 1)], db->dialect()),
             "migrating the tracking database to schema version " + std::to_string(next));
  }
  db->exec("DELETE FROM schema_version", "recording the schema version");
  sql::Statement record(db, "INSERT INTO schema_version(version) VALUES(?)", "recording the schema version");
  record.bindInt64(1, currentVersion()).run();
  tx.commit();
}

}  // namespace tw::tracking::schema
