#pragma once
// The tracking database: one SQLite file per workspace (WAL, busy_timeout, BEGIN IMMEDIATE), or
// one PostgreSQL database that many machines share (store_location.h says how each is named).
// A Store is one connection: use one per thread. Every call throws TrackingError on failure.
//
//   auto store = tw::tracking::Store::open(config::trackingStore(workspace));
//   auto run = store->createRun({.experiment = "fashion", .configYaml = yaml});
//   store->setStatus(run.id, RunStatus::Running);

#include "tracking/model_record.h"
#include "tracking/run_record.h"
#include "tracking/study_record.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>


namespace tw::tracking {

namespace sql {
class Connection;
}

class TrackingError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
  TrackingError(const std::string &message, int sqliteCode) : std::runtime_error(message), m_code(sqliteCode) {}
  // SQLite's primary result code when SQLite refused (SQLITE_FULL: the disk is full), else 0.
  int sqliteCode() const { return m_code; }

 private:
  int m_code = 0;
};

class Store {
 public:
  // Opens or creates the database (a SQLite path or a store URL) and migrates it to the current
  // schema version. A schema newer than this build's is refused, never migrated down.
  static std::unique_ptr<Store> open(const std::string &location);
  ~Store();
  Store(const Store &) = delete;
  Store &operator=(const Store &) = delete;

  // The location as given to open(), for opening another connection to the same store; it may
  // hold a password, so messages use shownLocation().
  const std::string &path() const { return m_path; }
  const std::string &shownLocation() const;
  bool isSqlite() const { return m_sqlite; }
  // Why this connection no longer reads the workspace's database, or empty while it does: the
  // file at path() is another one now, or the WAL file the connection reads was deleted or
  // replaced under it. SQLite never does that to a live connection on its own; it happens when
  // something in this process closes a descriptor of the database and so drops the POSIX locks
  // SQLite holds (ui/common/file_dialogs.h says how Studio avoids that). A long-lived reader
  // asks before each poll and reopens when there is a reason.
  // Once one connection of this process has found a reason, every other one on the same path
  // returns it too. Always empty on PostgreSQL.
  std::string replacedFiles();
  // How many Stores of this process on `path` were opened before the last replacement was found
  // and are still open. SQLite shares one lock record and one shared-memory mapping per file
  // among a process's connections, so a connection reopened while one of those still holds the
  // orphaned ones attaches to them again: a reader that found replacedFiles() closes, and reopens
  // only once this is 0.
  static int connectionsOnReplacedFiles(const std::string &path);
  int schemaVersion() const;
  static int currentSchemaVersion();
  static std::string sqliteVersion();  // of the linked library, for the run's library versions

  // --- writes ---
  int64_t ensureExperiment(const std::string &name);
  RunRecord createRun(const NewRun &run);
  // RUNNING stamps start_ms (the first time) and clears end_ms, so a resumed run reads as
  // running; FINISHED, FAILED and KILLED stamp end_ms.
  // How a run ended is recorded even on a full disk: RUNNING also keeps a reserve file of
  // kReserveBytes beside the database (reservePath()), and an ended status that SQLite refuses
  // for want of space deletes the reserve and is written again. The next RUNNING remakes it.
  void setStatus(int64_t runId, RunStatus status, const std::string &message = {});
  // A run brought in from another tool (runs import): its status and its own times, as recorded
  // there, whatever the run's status was.
  void setImportedOutcome(int64_t runId, RunStatus status, int64_t startMs, int64_t endMs);
  static constexpr int64_t kReserveBytes = 1 << 20;
  std::string reservePath() const { return m_path + "-reserve"; }
  void setParams(int64_t runId, const std::map<std::string, std::string> &params);
  void setTag(int64_t runId, const std::string &key, const std::string &value);
  void removeTag(int64_t runId, const std::string &key);  // no error when the run lacks it
  // `details`: a JSON object (an export's options and check), empty for plain files.
  void addArtifact(int64_t runId, const std::string &path, const std::string &kind, const std::string &sha256 = {},
                   const std::string &details = {});
  // A file the run no longer keeps (an epoch checkpoint past train.keep_epochs); no error when absent.
  void removeArtifact(int64_t runId, const std::string &path);
  // Filled in by the worker once it has read the data (the CLI creates the run before that).
  void setDataFingerprint(int64_t runId, const std::string &fingerprint);
  // One transaction; rows are sorted by series before insertion (6-8x faster than interleaved).
  // A repeated (run, key, step) replaces the earlier value: a resumed run never duplicates a step.
  void writeMetrics(int64_t runId, std::vector<MetricRow> rows);
  void writeSystemMetrics(int64_t runId, std::vector<SystemMetricRow> rows);
  // The GUI's Stop button: sets the run's stop flag, which the worker polls. The flag clears
  // when the run reaches FINISHED, FAILED or KILLED, so a resumed run starts unflagged.
  // "Checkpoint now": the worker takes the request (true once per request) and checkpoints.
  void requestCheckpoint(int64_t runId);
  bool takeCheckpointRequest(int64_t runId);
  void requestStop(int64_t runId);
  // Deletes the run's rows (params, tags, metrics, artifacts' records); its folder stays. A trial
  // that referenced the run stays, with run id 0.
  void deleteRun(int64_t runId);

  // --- liveness ---
  // Launchers beat every ~2 s; a minute of silence is then ~30 missed beats, far beyond a busy
  // database (busy_timeout is 10 s) or a stalled file system, yet short enough that a killed
  // run does not read RUNNING for long.
  static constexpr int64_t kDefaultMaxSilenceMs = 60000;
  // Stamps heartbeat_ms = nowMs(). Leaves updated_ms alone, so the GUI's change polling does not
  // re-read every running run on every beat. Throws TrackingError for an unknown run.
  void heartbeat(int64_t runId);
  // Marks FAILED, in one transaction, every run not yet ended (RUNNING, or CREATED: recorded and
  // never started) whose last sign of life, the latest of heartbeat_ms, start_ms and updated_ms,
  // is older than now - maxSilenceMs: its launcher was killed or its machine stopped. Stamps
  // end_ms and updated_ms, clears the stop flag, says why in the status message, and returns the
  // runs it changed as they are now. Runs written before schema 2, or not yet beaten for, are
  // judged by their latest write. Ended runs stay.
  std::vector<RunRecord> failSilentRuns(int64_t maxSilenceMs = kDefaultMaxSilenceMs);

  // --- studies and trials (store_studies.cpp, store_trials.cpp, store_heartbeat.cpp) ---
  // Throws TrackingError when the name is taken.
  StudyRecord createStudy(const NewStudy &study);
  // By full uuid, unique uuid prefix or name; nullopt when none or ambiguous.
  std::optional<StudyRecord> findStudy(const std::string &idPrefixOrName) const;
  std::optional<StudyRecord> study(int64_t studyId) const;
  std::vector<StudyRecord> listStudies() const;  // newest first
  // Studies whose row changed after `updatedMs` (Studio's incremental poll), oldest change first.
  std::vector<StudyRecord> studiesChangedSince(int64_t updatedMs) const;
  // The driver's claim on a study: "RUNNING" with a heartbeat, or "IDLE" when it ends. RUNNING
  // stamps the driver's heartbeat; IDLE clears the stop flag, so the next driver starts unflagged.
  void setStudyStatus(int64_t studyId, const std::string &status);
  // The sweep text recorded with the study, replaced (a resume's `--set` lines appended to it).
  void setStudySweepYaml(int64_t studyId, const std::string &sweepYaml);
  // Unlike a run's heartbeat this bumps updated_ms: studies are few, and Studio must see a live
  // driver's beats to tell it from a dead one.
  // `driverMs`: the time drivers have spent on the study so far, all sessions (budget.minutes
  // counts it); negative leaves it as it is.
  void studyHeartbeat(int64_t studyId, int64_t driverMs = -1);
  // Studio's Stop button: the driver polls the flag, starts no new trial and ends.
  void requestStudyStop(int64_t studyId);
  bool studyStopRequested(int64_t studyId) const;
  // Allocates the next trial number and records the trial, in one BEGIN IMMEDIATE transaction:
  // any number of processes may ask at once and no number is given twice or skipped.
  TrialRecord addTrial(int64_t studyId, const std::map<std::string, std::string> &params,
                       const std::string &state = "RUNNING", int retryOf = -1);
  void linkTrialRun(int64_t studyId, int number, int64_t runId);  // 0 unlinks
  // RUNNING stamps start_ms (the first time) and clears end_ms; final states (COMPLETE, PRUNED,
  // FAILED) stamp end_ms. Values, when given, replace the stored ones; the message always does.
  // Throws TrackingError for an unknown trial or state.
  void setTrialState(int64_t studyId, int number, const std::string &state,
                     const std::vector<double> &values = {}, const std::string &message = {});
  void reportIntermediate(int64_t studyId, int number, int64_t step, double value);
  // Stamps heartbeat_ms alone, like heartbeat(): a beat is no change Studio must re-read.
  void trialHeartbeat(int64_t studyId, int number);
  std::optional<TrialRecord> trial(int64_t studyId, int number) const;
  std::vector<TrialRecord> trials(int64_t studyId) const;  // number order, intermediates included
  // Trials whose row changed after `updatedMs` (Studio's incremental poll).
  std::vector<TrialRecord> trialsChangedSince(int64_t studyId, int64_t updatedMs) const;
  // The trial a run belongs to, if any.
  std::optional<TrialRecord> trialOfRun(int64_t runId) const;
  // Marks FAILED every RUNNING trial of the study whose last sign of life (heartbeat, start,
  // update) is older than now - maxSilenceMs, in one transaction, saying why in its message;
  // returns them as they are now.
  std::vector<TrialRecord> failSilentTrials(int64_t studyId, int64_t maxSilenceMs = kDefaultMaxSilenceMs);

  // --- the model registry (store_models.cpp) ---
  // Creates the model on its first version; the version number is the name's next, allocated
  // under the write lock. A non-empty description replaces the model's.
  ModelVersionRecord registerModelVersion(const std::string &name, const NewModelVersion &version,
                                          const std::string &description = {});
  std::vector<ModelRecord> listModels() const;  // by name
  std::vector<ModelVersionRecord> modelVersions(const std::string &name) const;  // version order
  std::optional<ModelVersionRecord> modelVersion(const std::string &name, int version) const;
  // Moves a version to `stage` (modelStages()); with archiveOthers, the versions that were in
  // that stage go to "archived", as MLflow's archive_existing_versions. Returns every version.
  // Throws TrackingError for an unknown model, version or stage.
  std::vector<ModelVersionRecord> setModelStage(const std::string &name, int version, const std::string &stage,
                                                bool archiveOthers = false);
  // The artifacts recorded with this SHA-256 (an exported file, wherever it was moved since),
  // newest first, with their runs' ids.
  std::vector<std::pair<int64_t, Artifact>> artifactsWithDigest(const std::string &sha256) const;

  // --- reads ---
  std::optional<RunRecord> run(int64_t runId) const;
  // By full uuid, unique uuid prefix (any length), or run name; nullopt when none or ambiguous.
  std::optional<RunRecord> findRun(const std::string &idPrefixOrName) const;
  // Every run the reference could mean, oldest first, at most `limit` (0 = all): a full uuid
  // gives its run alone; otherwise the runs whose uuid starts with it and those of that name.
  std::vector<RunRecord> findRuns(const std::string &idPrefixOrName, int limit = 0) const;
  std::vector<RunRecord> listRuns(int limit = 0) const;           // newest first
  std::vector<RunRecord> runsChangedSince(int64_t updatedMs) const; // updatedMs > given
  std::map<std::string, std::string> params(int64_t runId) const;
  std::map<std::string, std::string> tags(int64_t runId) const;
  std::vector<Artifact> artifacts(int64_t runId) const;
  std::vector<std::string> metricKeys(int64_t runId) const;
  // Points with step > afterStep in step order; limit 0 = all.
  std::vector<MetricPoint> metricPoints(int64_t runId, const std::string &key,
                                        int64_t afterStep = INT64_MIN, int limit = 0) const;
  std::vector<LatestMetric> latestMetrics(int64_t runId) const;
  // Latest metrics, params and tags of many runs: one pass over each table for a long list
  // (Studio opening a workspace of thousands), per-run queries for a short one.
  std::map<int64_t, RunDetails> runDetails(const std::vector<int64_t> &runIds) const;
  std::vector<SystemMetricRow> systemMetrics(int64_t runId, int64_t afterMs = 0) const;
  bool stopRequested(int64_t runId) const;

 private:
  explicit Store(std::string location);
  // The process-wide count of open Stores per path and of the replacements found there
  // (store_files.cpp); registering returns the path's current replacement count.
  static uint64_t registerConnection(const std::string &path);
  static void unregisterConnection(const std::string &path, uint64_t epoch);
  int64_t keyId(const std::string &key);  // interned metric key
  void writeStatus(int64_t runId, RunStatus status, const std::string &message);  // setStatus's one try
  std::unique_ptr<sql::Connection> m_connection;
  sql::Connection *m_db = nullptr;
  std::string m_path;
  bool m_sqlite = true;
  std::map<std::string, int64_t> m_keyCache;
  // The files this connection opened (st_dev, st_ino); a WAL inode of 0 is not known yet.
  uint64_t m_dbDevice = 0, m_dbInode = 0, m_walInode = 0;
  bool m_identityKnown = false;
  uint64_t m_replacedEpoch = 0;  // the path's count of found replacements when this one opened
};

}  // namespace tw::tracking
