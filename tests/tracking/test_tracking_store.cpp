// The tracking store's runs against a real SQLite file: creation and generated names,
// statuses and their timestamps, params/tags/artifacts, lookups by uuid, prefix and name,
// listings and change polling, the stop flag, deletion, and the schema's versioning (fresh,
// reopened, older, schema-1, newer and foreign files, WAL).

#include "tracking_fixture.h"

#include "tracking/run_labels.h"
#include "tracking/store.h"

#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

#include <sys/stat.h>

using namespace tracking_test;
using tw::tracking::NewRun;
using tw::tracking::RunRecord;
using tw::tracking::RunDetails;
using tw::tracking::RunStatus;
using tw::tracking::Store;
using tw::tracking::TrackingError;

class TestTrackingStore : public QObject {
  Q_OBJECT

  QTemporaryDir *m_dir = nullptr;
  std::string m_path;

 private Q_SLOTS:
  void init() {
    m_dir = new QTemporaryDir;
    QVERIFY(m_dir->isValid());
    m_path = tracking_test::freshStore(*m_dir);
    if (m_path.empty()) QSKIP(qPrintable(tracking_test::skipReason()));
  }
  void cleanup() {
    delete m_dir;
    m_dir = nullptr;
  }

  void createsRunsWithGeneratedNamesAndUuids() {
    auto store = Store::open(m_path);
    NewRun full = newRun("fashion");
    full.configYaml = "train:\n  lr: 0.001\n";
    full.configHash = "abc123";
    full.seed = 42;
    full.libraryVersions = "libtorch=1.13.1";
    full.host = "box (Linux)";
    full.hardware = "2 cores";
    full.runsRoot = "/ws/runs";
    const int64_t before = tw::tracking::nowMs();
    RunRecord first = store->createRun(full);
    RunRecord second = store->createRun(newRun("fashion"));
    RunRecord other = store->createRun(newRun("mnist"));
    RunRecord named = store->createRun(newRun("fashion", "baseline"));

    QCOMPARE(first.name, std::string("fashion-1"));
    QCOMPARE(second.name, std::string("fashion-2"));
    QCOMPARE(other.name, std::string("mnist-1"));
    QCOMPARE(named.name, std::string("baseline"));
    QCOMPARE(first.uuid.size(), size_t(32));
    QVERIFY(first.uuid.find_first_not_of("0123456789abcdef") == std::string::npos);
    QVERIFY(first.uuid != second.uuid);
    QCOMPARE(first.experiment, std::string("fashion"));
    QCOMPARE(first.experimentId, second.experimentId);
    QVERIFY(first.experimentId != other.experimentId);
    QCOMPARE(store->ensureExperiment("fashion"), first.experimentId);
    QCOMPARE(first.status, RunStatus::Created);
    QVERIFY(first.createdMs >= before);
    QCOMPARE(first.updatedMs, first.createdMs);
    QCOMPARE(first.startMs, int64_t(0));
    QCOMPARE(first.endMs, int64_t(0));
    QCOMPARE(first.configYaml, full.configYaml);
    QCOMPARE(first.configHash, full.configHash);
    QCOMPARE(first.seed, int64_t(42));
    QCOMPARE(first.libraryVersions, full.libraryVersions);
    QCOMPARE(first.host, full.host);
    QCOMPARE(first.hardware, full.hardware);
    QCOMPARE(first.runDir, "/ws/runs/" + first.uuid);
    QCOMPARE(second.runDir, std::string());

    // The number counts the experiment's runs; after a delete it skips names still taken.
    store->deleteRun(first.id);
    QCOMPARE(store->createRun(newRun("fashion")).name, std::string("fashion-3"));
    store->deleteRun(second.id);
    QCOMPARE(store->createRun(newRun("fashion")).name, std::string("fashion-4"));
  }

  void statusStampsStartAndEnd_data() {
    QTest::addColumn<RunStatus>("terminal");
    QTest::addColumn<QString>("message");
    QTest::newRow("finished") << RunStatus::Finished << QString();
    QTest::newRow("failed") << RunStatus::Failed << QString("loss became NaN at step 12");
    QTest::newRow("killed") << RunStatus::Killed << QString("stopped on request");
  }
  void statusStampsStartAndEnd() {
    QFETCH(RunStatus, terminal);
    QFETCH(QString, message);
    auto store = Store::open(m_path);
    RunRecord run = store->createRun(newRun("e"));
    sleepMs(3);
    store->setStatus(run.id, RunStatus::Running);
    RunRecord running = *store->run(run.id);
    QCOMPARE(running.status, RunStatus::Running);
    QVERIFY(running.startMs > run.createdMs);
    QCOMPARE(running.endMs, int64_t(0));
    QVERIFY(running.updatedMs >= running.startMs);

    sleepMs(3);
    store->setStatus(run.id, terminal, message.toStdString());
    RunRecord ended = *store->run(run.id);
    QCOMPARE(ended.status, terminal);
    QCOMPARE(ended.statusMessage, message.toStdString());
    QCOMPARE(ended.startMs, running.startMs);
    QVERIFY(ended.endMs > ended.startMs);

    // FINISHED is final (tracking/state_table.h); a failed or killed run resumes.
    if (terminal == RunStatus::Finished) {
      QVERIFY_THROWS_EXCEPTION(tw::tracking::TrackingError, store->setStatus(run.id, RunStatus::Running));
      return;
    }
    // Resumed: the first start stays, the end is cleared.
    store->setStatus(run.id, RunStatus::Running);
    RunRecord resumed = *store->run(run.id);
    QCOMPARE(resumed.startMs, running.startMs);
    QCOMPARE(resumed.endMs, int64_t(0));
  }

  void paramsTagsArtifacts() {
    auto store = Store::open(m_path);
    RunRecord run = store->createRun(newRun("e"));
    RunRecord other = store->createRun(newRun("e"));
    store->setParams(run.id, {{"train.lr", "0.001"}, {"train.epochs", "3"}});
    store->setParams(run.id, {{"train.lr", "0.01"}, {"data.batch_size", "64"}});
    store->setParams(other.id, {{"train.lr", "1"}});
    const std::map<std::string, std::string> expected = {
        {"train.lr", "0.01"}, {"train.epochs", "3"}, {"data.batch_size", "64"}};
    QVERIFY(store->params(run.id) == expected);
    store->setTag(run.id, "note", "first try");
    store->setTag(run.id, "note", "second try");
    store->setTag(run.id, "owner", "ana");
    QVERIFY((store->tags(run.id) == std::map<std::string, std::string>{{"note", "second try"}, {"owner", "ana"}}));
    QVERIFY(store->tags(other.id).empty());
    store->addArtifact(run.id, "checkpoints/epoch-1.pt", "checkpoint");
    sleepMs(2);
    store->addArtifact(run.id, "artifacts/model.onnx", "model");
    auto artifacts = store->artifacts(run.id);
    QCOMPARE(artifacts.size(), size_t(2));
    QCOMPARE(artifacts[0].path, std::string("checkpoints/epoch-1.pt"));
    QCOMPARE(artifacts[0].kind, std::string("checkpoint"));
    QCOMPARE(artifacts[1].kind, std::string("model"));
    QVERIFY(artifacts[0].createdMs > 0);
    store->setDataFingerprint(run.id, "sha256:feed");
    QCOMPARE(store->run(run.id)->dataFingerprint, std::string("sha256:feed"));
  }

  void labelsNotesAndArchiveLiveInTags() {
    auto store = Store::open(m_path);
    RunRecord run = store->createRun(newRun("e"));
    store->setTag(run.id, tw::tracking::labelKey("sweep"), "");
    store->setTag(run.id, tw::tracking::labelKey(tw::tracking::normalizeLabel("  base,line ")), "");
    store->setTag(run.id, "environment", "OMP_NUM_THREADS=1");
    store->setTag(run.id, tw::tracking::kNoteTag, "wider");
    QVERIFY((tw::tracking::labelsOf(store->tags(run.id)) == std::vector<std::string>{"base line", "sweep"}));
    QCOMPARE(tw::tracking::noteOf(store->tags(run.id)), std::string("wider"));
    QVERIFY(!tw::tracking::isArchived(store->tags(run.id)));
    const int64_t before = store->run(run.id)->updatedMs;
    sleepMs(2);
    store->setTag(run.id, tw::tracking::kArchivedTag, "1");
    QVERIFY(tw::tracking::isArchived(store->tags(run.id)));
    store->removeTag(run.id, tw::tracking::labelKey("sweep"));
    store->removeTag(run.id, "no-such-tag");  // not an error
    QVERIFY((tw::tracking::labelsOf(store->tags(run.id)) == std::vector<std::string>{"base line"}));
    // Every change bumps the run, so that Studio's poller brings it to other windows.
    QVERIFY(store->run(run.id)->updatedMs > before);
    QVERIFY_THROWS_EXCEPTION(std::exception, store->removeTag(run.id + 100, "x"));
  }

  void runDetailsMatchPerRunReads() {
    auto store = Store::open(m_path);
    std::vector<int64_t> ids;
    for (int i = 0; i < 60; ++i) {
      RunRecord run = store->createRun(newRun("e"));
      store->setParams(run.id, {{"train.lr", std::to_string(i)}, {"train.seed", "7"}});
      if (i % 3 == 0) store->setTag(run.id, "label.every-third", "");
      store->writeMetrics(run.id, {{"val/accuracy", 10, 0.5 + i / 1000.0, 1}, {"train/loss", 10, 1.0 / (i + 1), 1}});
      ids.push_back(run.id);
    }
    auto check = [&](const std::vector<int64_t> &asked) {
      const auto details = store->runDetails(asked);
      QCOMPARE(details.size(), asked.size());
      for (int64_t id : asked) {
        const RunDetails &d = details.at(id);
        QVERIFY(d.params == store->params(id));
        QVERIFY(d.tags == store->tags(id));
        const auto latest = store->latestMetrics(id);
        QCOMPARE(d.latest.size(), latest.size());
        for (size_t k = 0; k < latest.size(); ++k) {
          QCOMPARE(d.latest[k].key, latest[k].key);
          QCOMPARE(d.latest[k].value, latest[k].value);
        }
      }
    };
    check({ids[5], ids[40]});                   // a few: per-run reads
    std::vector<int64_t> most(ids.begin() + 1, ids.end() - 1);
    most.erase(most.begin() + 20);              // a gap inside the scanned range stays out
    check(most);
    QVERIFY(!store->runDetails(most).count(ids[21]));
    QVERIFY(store->runDetails({}).empty());
  }

  void findRun_data() {
    QTest::addColumn<QString>("query");
    QTest::addColumn<QString>("expected");  // run name, empty when none is expected
    QTest::addColumn<int>("candidates");  // what findRuns lists
    QTest::newRow("full uuid") << "abcd2222000000000000000000000002" << "beta" << 1;
    QTest::newRow("upper-case uuid") << "ABCD2222000000000000000000000002" << "beta" << 1;
    QTest::newRow("unique prefix") << "abcd1111" << "alpha" << 1;
    QTest::newRow("shared prefix") << "abcd" << "" << 2;
    QTest::newRow("one-digit prefix") << "d" << "abcd2222" << 1;
    QTest::newRow("short shared prefix") << "abc" << "" << 2;
    QTest::newRow("name") << "alpha" << "alpha" << 1;
    QTest::newRow("name shared by two runs") << "twin" << "" << 2;
    QTest::newRow("name that is another run's prefix") << "abcd2222" << "" << 2;
    QTest::newRow("unknown") << "nothing" << "" << 0;
    QTest::newRow("empty") << "" << "" << 0;
  }
  void findRun() {
    QFETCH(QString, query);
    QFETCH(QString, expected);
    QFETCH(int, candidates);
    auto store = Store::open(m_path);
    const std::vector<std::pair<std::string, std::string>> runs = {
        {"alpha", "abcd1111000000000000000000000001"}, {"beta", "abcd2222000000000000000000000002"},
        {"twin", "ffff0000000000000000000000000003"},  {"twin", "eeee0000000000000000000000000004"},
        {"abcd2222", "dddd0000000000000000000000000005"}};
    for (const auto &[name, uuid] : runs) {
      RunRecord run = store->createRun(newRun("e", name));
      // Fixed uuids make prefix collisions deterministic.
      QVERIFY(execRaw(m_path, "UPDATE runs SET uuid = '" + uuid + "' WHERE id = " + std::to_string(run.id)));
    }
    QCOMPARE(int(store->findRuns(query.toStdString()).size()), candidates);
    auto found = store->findRun(query.toStdString());
    if (expected.isEmpty()) {
      QVERIFY2(!found, found ? found->name.c_str() : "");
    } else {
      QVERIFY(found);
      QCOMPARE(found->name, expected.toStdString());
    }
  }

  void listRunsNewestFirst() {
    auto store = Store::open(m_path);
    std::vector<int64_t> ids;
    for (int i = 0; i < 4; ++i) {
      ids.push_back(store->createRun(newRun(i % 2 ? "a" : "b")).id);
      if (i == 1) sleepMs(3);
    }
    auto runs = store->listRuns();
    QCOMPARE(runs.size(), size_t(4));
    for (size_t i = 0; i < runs.size(); ++i) QCOMPARE(runs[i].id, ids[ids.size() - 1 - i]);
    auto limited = store->listRuns(2);
    QCOMPARE(limited.size(), size_t(2));
    QCOMPARE(limited[0].id, ids[3]);
    QCOMPARE(limited[1].id, ids[2]);
  }

  void runsChangedSinceFollowsEveryWrite() {
    auto store = Store::open(m_path);
    RunRecord a = store->createRun(newRun("e"));
    RunRecord b = store->createRun(newRun("e"));
    QCOMPARE(store->runsChangedSince(-1).size(), size_t(2));
    sleepMs(3);
    const int64_t mark = tw::tracking::nowMs();
    sleepMs(3);
    QVERIFY(store->runsChangedSince(mark).empty());

    store->writeMetrics(b.id, series("loss", 0, 2));
    auto changed = store->runsChangedSince(mark);
    QCOMPARE(changed.size(), size_t(1));
    QCOMPARE(changed[0].id, b.id);
    QVERIFY(changed[0].updatedMs > mark);

    sleepMs(3);
    store->requestStop(a.id);
    changed = store->runsChangedSince(mark);
    QCOMPARE(changed.size(), size_t(2));
    QCOMPARE(changed[0].id, b.id);  // oldest change first
    QCOMPARE(changed[1].id, a.id);

    const int64_t mark2 = changed[1].updatedMs;
    sleepMs(3);
    store->writeSystemMetrics(b.id, {{"cpu_percent", 0, 0, 50.0}});
    changed = store->runsChangedSince(mark2);
    QCOMPARE(changed.size(), size_t(1));
    QCOMPARE(changed[0].id, b.id);
  }

  void stopFlagUntilTheRunEnds() {
    auto store = Store::open(m_path);
    RunRecord run = store->createRun(newRun("e"));
    store->setStatus(run.id, RunStatus::Running);
    QVERIFY(!store->stopRequested(run.id));
    // The worker polls over its own connection.
    auto worker = Store::open(m_path);
    store->requestStop(run.id);
    QVERIFY(worker->stopRequested(run.id));
    worker->setStatus(run.id, RunStatus::Killed, "stopped on request");
    QVERIFY(!store->stopRequested(run.id));
    QVERIFY_THROWS_EXCEPTION(TrackingError, store->stopRequested(12345));
  }

  void deleteRunRemovesOnlyItsRows() {
    auto store = Store::open(m_path);
    RunRecord gone = store->createRun(newRun("e"));
    RunRecord kept = store->createRun(newRun("e"));
    for (const RunRecord &run : {gone, kept}) {
      store->setParams(run.id, {{"a", "1"}});
      store->setTag(run.id, "t", "v");
      store->addArtifact(run.id, "model.pt", "model");
      store->writeMetrics(run.id, series("loss", 0, 9));
      store->writeSystemMetrics(run.id, {{"cpu_percent", 0, 5, 1.0}});
    }
    store->deleteRun(gone.id);
    QVERIFY(!store->run(gone.id));
    QVERIFY(store->params(gone.id).empty());
    QVERIFY(store->metricPoints(gone.id, "loss").empty());
    QVERIFY(store->latestMetrics(gone.id).empty());
    QVERIFY(store->artifacts(gone.id).empty());
    QVERIFY(store->systemMetrics(gone.id).empty());
    QCOMPARE(store->metricPoints(kept.id, "loss").size(), size_t(10));
    QCOMPARE(store->listRuns().size(), size_t(1));
    QCOMPARE(queryText(m_path, "SELECT COUNT(*) FROM metrics"), std::string("10"));
  }

  // A new database, and its WAL, are its user's alone whatever the umask; an existing file keeps
  // the permissions its owner gave it.
  void newDatabaseIsUserOnly() {
    SQLITE_ONLY("a server's database has no file of the user's");
    const mode_t before = ::umask(022);
    {
      auto store = Store::open(m_path);
      store->createRun(newRun("e"));
      QCOMPARE(QFileInfo(QString::fromStdString(m_path)).permissions() & 0x0077, QFileDevice::Permissions());
      const QString wal = QString::fromStdString(m_path) + "-wal";
      QVERIFY(QFileInfo::exists(wal));
      QCOMPARE(QFileInfo(wal).permissions() & 0x0077, QFileDevice::Permissions());
    }
    ::umask(before);
    const std::string shared = m_dir->filePath("shared.db").toStdString();
    { std::ofstream touch(shared); }
    ::chmod(shared.c_str(), 0644);
    Store::open(shared);
    QVERIFY(QFileInfo(QString::fromStdString(shared)).permissions() & QFileDevice::ReadOther);
  }

  void schemaVersionRecorded() {
    auto store = Store::open(m_path);
    QCOMPARE(Store::currentSchemaVersion(), 7);
    QCOMPARE(store->schemaVersion(), Store::currentSchemaVersion());
    QCOMPARE(queryText(m_path, "SELECT version FROM schema_version"), std::to_string(Store::currentSchemaVersion()));
    QCOMPARE(queryText(m_path, "SELECT COUNT(*) FROM schema_version"), std::string("1"));
    QVERIFY(!Store::sqliteVersion().empty());
  }

  void uniqueNamesCountUp() {
    auto store = Store::open(m_path);
    NewRun run = newRun("e", "same");
    run.uniqueName = true;
    QCOMPARE(store->createRun(run).name, std::string("same"));
    QCOMPARE(store->createRun(run).name, std::string("same-2"));
    run.experiment = "other";  // names are unique across experiments: RUN on the command line is one
    QCOMPARE(store->createRun(run).name, std::string("same-3"));
    run.uniqueName = false;
    QCOMPARE(store->createRun(run).name, std::string("same"));
  }

  void artifactKeepsItsDigest() {
    auto store = Store::open(m_path);
    const RunRecord run = store->createRun(newRun("exp"));
    store->addArtifact(run.id, "model.onnx", "export:onnx", "ab12");
    store->addArtifact(run.id, "best.pt", "checkpoint");
    const auto artifacts = store->artifacts(run.id);
    QCOMPARE(artifacts.size(), size_t(2));
    for (const auto &a : artifacts) QCOMPARE(a.sha256, std::string(a.path == "model.onnx" ? "ab12" : ""));
  }

  void registryNumbersVersionsAndMovesStages() {
    auto store = Store::open(m_path);
    tw::tracking::NewModelVersion v;
    v.path = "/m/a.onnx";
    v.sha256 = "aa";
    v.format = "onnx";
    v.runUuid = "r1";
    const auto first = store->registerModelVersion("fashion", v, "the classifier");
    v.path = "/m/b.onnx";
    const auto second = store->registerModelVersion("fashion", v);
    QCOMPARE(first.version, 1);
    QCOMPARE(second.version, 2);
    QCOMPARE(second.stage, std::string("none"));
    store->setModelStage("fashion", 1, "production");
    auto versions = store->setModelStage("fashion", 2, "production", /*archiveOthers=*/true);
    QCOMPARE(versions[0].stage, std::string("archived"));
    QCOMPARE(versions[1].stage, std::string("production"));
    const auto models = store->listModels();
    QCOMPARE(models.size(), size_t(1));
    QCOMPARE(models[0].description, std::string("the classifier"));  // kept: the second gave none
    QCOMPARE(models[0].versions, 2);
    QCOMPARE(models[0].productionVersion, 2);
    QVERIFY_THROWS_EXCEPTION(TrackingError, store->setModelStage("fashion", 3, "staging"));
    QVERIFY_THROWS_EXCEPTION(TrackingError, store->setModelStage("fashion", 1, "retired"));
  }

  void walModeOn() {
    SQLITE_ONLY("the journal mode is SQLite's");
    auto store = Store::open(m_path);
    QCOMPARE(queryText(m_path, "PRAGMA journal_mode"), std::string("wal"));
  }

  void reopeningKeepsData() {
    int64_t runId = 0;
    {
      auto store = Store::open(m_path);
      RunRecord run = store->createRun(newRun("e", "kept"));
      runId = run.id;
      store->setParams(run.id, {{"train.lr", "0.1"}});
      store->writeMetrics(run.id, series("loss", 0, 99));
    }
    auto store = Store::open(m_path);
    QCOMPARE(store->schemaVersion(), Store::currentSchemaVersion());
    auto run = store->findRun("kept");
    QVERIFY(run);
    QCOMPARE(run->id, runId);
    QCOMPARE(store->params(runId).at("train.lr"), std::string("0.1"));
    QCOMPARE(store->metricPoints(runId, "loss").size(), size_t(100));
    // Keys interned by the first connection are found by the second.
    store->writeMetrics(runId, series("loss", 100, 100));
    QCOMPARE(store->metricPoints(runId, "loss", 98).size(), size_t(2));
    QCOMPARE(queryText(m_path, "SELECT COUNT(*) FROM metric_keys"), std::string("1"));
  }

  void olderFileIsMigrated() {
    // A version-0 file: an SQLite database without the schema.
    QVERIFY(execRaw(m_path, "CREATE TABLE notes(text TEXT); INSERT INTO notes VALUES('hello');"));
    auto store = Store::open(m_path);
    QCOMPARE(store->schemaVersion(), Store::currentSchemaVersion());
    RunRecord run = store->createRun(newRun("e"));
    QVERIFY(store->run(run.id));
    QCOMPARE(queryText(m_path, "SELECT text FROM notes"), std::string("hello"));
  }

  void schemaOneFileIsMigrated() {
    // A file as schema 1 left it: today's file with migrations 2 to 7 undone. DROP COLUMN rewrites
    // the stored CREATE TABLE, so the runs table reads exactly as migration 1 created it.
    int64_t runId = 0;
    {
      auto store = Store::open(m_path);
      RunRecord run = store->createRun(newRun("e", "old"));
      runId = run.id;
      store->setStatus(run.id, RunStatus::Running);
    }
    QVERIFY(execRaw(m_path, "DROP TABLE model_versions; DROP TABLE models; ALTER TABLE artifacts DROP COLUMN details; "
                            "ALTER TABLE artifacts DROP COLUMN sha256; "
                            "DROP TABLE trial_intermediate; DROP TABLE trial_values; DROP TABLE trial_params; "
                            "DROP TABLE trials; DROP TABLE studies; "
                            "ALTER TABLE runs DROP COLUMN heartbeat_ms; ALTER TABLE runs DROP COLUMN checkpoint_requested; "
                            "UPDATE schema_version SET version = 1"));
    QCOMPARE(queryText(m_path, countColumnsSql("runs", "heartbeat_ms")),
             std::string("0"));

    auto store = Store::open(m_path);
    QCOMPARE(store->schemaVersion(), Store::currentSchemaVersion());
    QCOMPARE(queryText(m_path, "SELECT heartbeat_ms FROM runs WHERE name = 'old'"), std::string("0"));
    RunRecord run = *store->run(runId);
    QCOMPARE(run.status, RunStatus::Running);
    QCOMPARE(run.heartbeatMs, int64_t(0));
    store->heartbeat(runId);
    QVERIFY(store->run(runId)->heartbeatMs > 0);
  }

  void checkpointRequestIsTakenOnce() {
    auto store = Store::open(m_path);
    RunRecord run = store->createRun(newRun("e", "ckpt"));
    QVERIFY(!store->takeCheckpointRequest(run.id));
    store->requestCheckpoint(run.id);
    QVERIFY(store->takeCheckpointRequest(run.id));
    QVERIFY(!store->takeCheckpointRequest(run.id));  // taken: the worker checkpoints once
    store->requestCheckpoint(run.id);
    store->requestCheckpoint(run.id);  // twice before the worker looks: still one checkpoint
    QVERIFY(store->takeCheckpointRequest(run.id));
    QVERIFY(!store->takeCheckpointRequest(run.id));
  }

  void futureSchemaIsRejected() {
    Store::open(m_path);
    const int future = Store::currentSchemaVersion() + 1;
    QVERIFY(execRaw(m_path, "UPDATE schema_version SET version = " + std::to_string(future)));
    try {
      Store::open(m_path);
      QFAIL("a file from a newer Torchwright was opened");
    } catch (const TrackingError &e) {
      const std::string what = e.what();
      QVERIFY2(what.find("schema version " + std::to_string(future)) != std::string::npos, e.what());
      QVERIFY2(what.find("newer") != std::string::npos, e.what());
      QVERIFY2(what.find(m_path) != std::string::npos, e.what());
    }
    // Rejecting it changed nothing.
    QCOMPARE(queryText(m_path, "SELECT version FROM schema_version"), std::to_string(future));
  }

  void notADatabaseIsAClearError() {
    SQLITE_ONLY("a file that is not SQLite's");
    std::ofstream(m_path) << "this is not an SQLite file, just some text that is long enough to have a header";
    try {
      Store::open(m_path);
      QFAIL("a text file was opened as a database");
    } catch (const TrackingError &e) {
      const std::string what = e.what();
      QVERIFY2(what.find("file is not a database") != std::string::npos, e.what());
      QVERIFY2(what.find("opening the tracking database") != std::string::npos, e.what());
    }
  }
};

QTEST_GUILESS_MAIN(TestTrackingStore)
#include "test_tracking_store.moc"
