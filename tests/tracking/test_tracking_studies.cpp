// Studies and trials against a real SQLite file: every field round-trips, lookup by name and
// uuid prefix, the driver's status, heartbeat and stop flag, trial numbering and states,
// Studio's change polling, silent trials failed, a deleted run leaving its trial, and a file
// from before the studies migration. Concurrent trial processes are in test_tracking_concurrency.

#include "tracking_fixture.h"

#include "tracking/state_table.h"
#include "tracking/store.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <functional>

using namespace tracking_test;
using tw::tracking::NewStudy;
using tw::tracking::RunRecord;
using tw::tracking::Store;
using tw::tracking::StudyRecord;
using tw::tracking::TrackingError;
using tw::tracking::TrialRecord;

namespace {

NewStudy newStudy(const std::string &name) {
  NewStudy study;
  study.name = name;
  return study;
}

void compareStudies(const StudyRecord &a, const StudyRecord &b) {
  QCOMPARE(a.id, b.id);
  QCOMPARE(a.uuid, b.uuid);
  QCOMPARE(a.name, b.name);
  QCOMPARE(a.experiment, b.experiment);
  QCOMPARE(a.sweepYaml, b.sweepYaml);
  QCOMPARE(a.sweepFile, b.sweepFile);
  QCOMPARE(a.directions, b.directions);
  QCOMPARE(a.metrics, b.metrics);
  QCOMPARE(a.baseHash, b.baseHash);
  QCOMPARE(a.status, b.status);
  QCOMPARE(a.stopRequested, b.stopRequested);
  QCOMPARE(a.createdMs, b.createdMs);
  QCOMPARE(a.updatedMs, b.updatedMs);
  QCOMPARE(a.driverHeartbeatMs, b.driverHeartbeatMs);
}

void compareTrials(const TrialRecord &a, const TrialRecord &b) {
  QCOMPARE(a.id, b.id);
  QCOMPARE(a.studyId, b.studyId);
  QCOMPARE(a.number, b.number);
  QCOMPARE(a.state, b.state);
  QCOMPARE(a.params, b.params);
  QCOMPARE(a.values, b.values);
  QCOMPARE(a.intermediate, b.intermediate);
  QCOMPARE(a.runId, b.runId);
  QCOMPARE(a.message, b.message);
  QCOMPARE(a.retryOf, b.retryOf);
  QCOMPARE(a.createdMs, b.createdMs);
  QCOMPARE(a.startMs, b.startMs);
  QCOMPARE(a.endMs, b.endMs);
  QCOMPARE(a.updatedMs, b.updatedMs);
  QCOMPARE(a.heartbeatMs, b.heartbeatMs);
}

constexpr int64_t kLimitMs = 60000;

}  // namespace

class TestTrackingStudies : public QObject {
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

  void studyRoundTripsEveryField() {
    auto store = Store::open(m_path);
    NewStudy full;
    full.name = "lr-search";
    full.experiment = "fashion";
    full.sweepYaml = "search_space:\n  train.lr: {type: float, low: 1e-4, high: 1e-1, log: true}\n";
    full.sweepFile = "/ws/sweeps/lr.yaml";
    full.directions = "maximize,minimize";
    full.metrics = "val/accuracy,params";
    full.baseHash = "feedbeef";
    const int64_t before = tw::tracking::nowMs();
    const StudyRecord created = store->createStudy(full);
    QVERIFY(created.id > 0);
    QCOMPARE(created.uuid.size(), size_t(32));
    QCOMPARE(created.name, full.name);
    QCOMPARE(created.experiment, full.experiment);
    QCOMPARE(created.sweepYaml, full.sweepYaml);
    QCOMPARE(created.sweepFile, full.sweepFile);
    QCOMPARE(created.directions, full.directions);
    QCOMPARE(created.metrics, full.metrics);
    QCOMPARE(created.baseHash, full.baseHash);
    QCOMPARE(created.status, std::string("IDLE"));
    QVERIFY(!created.stopRequested);
    QVERIFY(created.createdMs >= before);
    QCOMPARE(created.updatedMs, created.createdMs);
    QCOMPARE(created.driverHeartbeatMs, int64_t(0));

    compareStudies(*store->study(created.id), created);
    compareStudies(*store->findStudy(created.uuid), created);
    compareStudies(store->listStudies().at(0), created);
    // A second connection reads the same.
    compareStudies(*Store::open(m_path)->findStudy("lr-search"), created);

    // Defaults: the experiment "default", empty texts.
    const StudyRecord plain = store->createStudy(newStudy("plain"));
    QCOMPARE(plain.experiment, std::string("default"));
    QVERIFY(plain.sweepYaml.empty() && plain.baseHash.empty());
    QVERIFY(plain.uuid != created.uuid);
    QVERIFY(!store->study(9999));
  }

  void studyNamesAreUnique() {
    auto store = Store::open(m_path);
    store->createStudy(newStudy("s"));
    try {
      store->createStudy(newStudy("s"));
      QFAIL("a second study named 's' was created");
    } catch (const TrackingError &e) {
      QVERIFY2(std::string(e.what()).find("'s'") != std::string::npos, e.what());
      QVERIFY2(std::string(e.what()).find("exists") != std::string::npos, e.what());
    }
    QVERIFY_THROWS_EXCEPTION(TrackingError, store->createStudy(newStudy("")));
    QCOMPARE(store->listStudies().size(), size_t(1));
  }

  void findStudyByNameAndUuidPrefix() {
    auto store = Store::open(m_path);
    const StudyRecord a = store->createStudy(newStudy("alpha"));
    const StudyRecord b = store->createStudy(newStudy("beta"));
    QVERIFY(execRaw(m_path, "UPDATE studies SET uuid = 'abcd1000000000000000000000000000' WHERE id = " +
                                std::to_string(a.id)));
    QVERIFY(execRaw(m_path, "UPDATE studies SET uuid = 'abcd2000000000000000000000000000' WHERE id = " +
                                std::to_string(b.id)));
    QCOMPARE(store->findStudy("alpha")->id, a.id);
    QCOMPARE(store->findStudy("beta")->id, b.id);
    QCOMPARE(store->findStudy("abcd1")->id, a.id);
    QCOMPARE(store->findStudy("ABCD2")->id, b.id);  // case is ignored in ids
    QCOMPARE(store->findStudy("abcd2000000000000000000000000000")->id, b.id);
    QVERIFY(!store->findStudy("abcd"));   // both
    QVERIFY(!store->findStudy("ffff"));   // neither
    QVERIFY(!store->findStudy("gamma"));
    QVERIFY(!store->findStudy(""));
    // A name that is another study's uuid prefix is ambiguous too.
    store->createStudy(newStudy("abcd1"));
    QVERIFY(!store->findStudy("abcd1"));
    // Newest first.
    const auto listed = store->listStudies();
    QCOMPARE(listed.size(), size_t(3));
    QCOMPARE(listed[0].name, std::string("abcd1"));
    QCOMPARE(listed[2].name, std::string("alpha"));
  }

  void driverStatusHeartbeatAndStop() {
    auto store = Store::open(m_path);
    const StudyRecord s = store->createStudy(newStudy("s"));
    sleepMs(2);
    store->setStudyStatus(s.id, "RUNNING");
    StudyRecord running = *store->study(s.id);
    QCOMPARE(running.status, std::string("RUNNING"));
    QVERIFY(running.driverHeartbeatMs > s.createdMs);
    QVERIFY(running.updatedMs > s.updatedMs);
    QCOMPARE(store->studiesChangedSince(s.updatedMs).size(), size_t(1));

    sleepMs(2);
    store->studyHeartbeat(s.id);
    const StudyRecord beaten = *store->study(s.id);
    QVERIFY(beaten.driverHeartbeatMs > running.driverHeartbeatMs);
    // Studio must see a live driver's beats.
    QCOMPARE(store->studiesChangedSince(running.updatedMs).size(), size_t(1));

    QVERIFY(!store->studyStopRequested(s.id));
    store->requestStudyStop(s.id);
    QVERIFY(store->studyStopRequested(s.id));
    QVERIFY(store->study(s.id)->stopRequested);
    store->setStudyStatus(s.id, "RUNNING");  // a driver's own status write keeps the request
    QVERIFY(store->studyStopRequested(s.id));
    store->setStudyStatus(s.id, "IDLE");
    QVERIFY(!store->studyStopRequested(s.id));
    QCOMPARE(store->study(s.id)->status, std::string("IDLE"));

    QVERIFY_THROWS_EXCEPTION(TrackingError, store->setStudyStatus(s.id, "PAUSED"));
    QVERIFY_THROWS_EXCEPTION(TrackingError, store->setStudyStatus(999, "IDLE"));
    QVERIFY_THROWS_EXCEPTION(TrackingError, store->studyHeartbeat(999));
    QVERIFY_THROWS_EXCEPTION(TrackingError, store->requestStudyStop(999));
    QVERIFY_THROWS_EXCEPTION(TrackingError, store->studyStopRequested(999));
  }

  void trialRoundTripsEveryField() {
    auto store = Store::open(m_path);
    const StudyRecord s = store->createStudy(newStudy("s"));
    const RunRecord run = store->createRun(newRun("e"));
    const std::map<std::string, std::string> params = {{"train.lr", "0.003"}, {"model.width", "64"}};
    const int64_t before = tw::tracking::nowMs();
    const TrialRecord added = store->addTrial(s.id, params, "RUNNING", 7);
    QCOMPARE(added.studyId, s.id);
    QCOMPARE(added.number, 0);
    QCOMPARE(added.state, std::string("RUNNING"));
    QCOMPARE(added.params, params);
    QCOMPARE(added.retryOf, 7);
    QCOMPARE(added.runId, int64_t(0));
    QVERIFY(added.createdMs >= before);
    QCOMPARE(added.startMs, added.createdMs);
    QCOMPARE(added.endMs, int64_t(0));

    store->linkTrialRun(s.id, 0, run.id);
    store->reportIntermediate(s.id, 0, 1, 0.5);
    store->reportIntermediate(s.id, 0, 2, 0.25);
    store->reportIntermediate(s.id, 0, 1, 0.75);  // a resumed trial reports a step again
    store->trialHeartbeat(s.id, 0);
    store->setTrialState(s.id, 0, "COMPLETE", {0.91, 12345.0, std::nan("")}, "done");

    const TrialRecord done = *store->trial(s.id, 0);
    QCOMPARE(done.runId, run.id);
    QCOMPARE(done.state, std::string("COMPLETE"));
    QCOMPARE(done.message, std::string("done"));
    QCOMPARE(done.values.size(), size_t(3));
    QCOMPARE(done.values[0], 0.91);
    QCOMPARE(done.values[1], 12345.0);
    QVERIFY(std::isnan(done.values[2]));  // SQLite keeps NaN as NULL; it reads back as NaN
    QCOMPARE(done.intermediate, (std::map<int64_t, double>{{1, 0.75}, {2, 0.25}}));
    QVERIFY(done.heartbeatMs >= added.createdMs);
    QVERIFY(done.endMs >= done.startMs && done.endMs > 0);
    QCOMPARE(done.startMs, added.startMs);
    QCOMPARE(done.retryOf, 7);
    QCOMPARE(done.params, params);

    // Every reader gives the same record (compared without the NaN, which never equals itself).
    auto withoutNan = [](TrialRecord t) {
      t.values.pop_back();
      return t;
    };
    compareTrials(withoutNan(store->trials(s.id).at(0)), withoutNan(done));
    compareTrials(withoutNan(*store->trialOfRun(run.id)), withoutNan(done));
    compareTrials(withoutNan(store->trialsChangedSince(s.id, 0).at(0)), withoutNan(done));
    compareTrials(withoutNan(*Store::open(m_path)->trial(s.id, 0)), withoutNan(done));
    QVERIFY(!store->trialOfRun(run.id + 1));
    QVERIFY(!store->trialOfRun(0));

    // COMPLETE is final: a second write is refused and the values stay (tracking/state_table.h).
    QVERIFY_THROWS_EXCEPTION(TrackingError, store->setTrialState(s.id, 0, "COMPLETE", {0.5}));
    QCOMPARE(store->trial(s.id, 0)->values.front(), 0.91);
    // Unlinking.
    store->linkTrialRun(s.id, 0, 0);
    QCOMPARE(store->trial(s.id, 0)->runId, int64_t(0));
    QVERIFY(!store->trialOfRun(run.id));
  }

  void trialNumbersAndStates() {
    auto store = Store::open(m_path);
    const StudyRecord s = store->createStudy(newStudy("s"));
    const StudyRecord other = store->createStudy(newStudy("other"));
    QCOMPARE(store->addTrial(s.id, {}).number, 0);
    QCOMPARE(store->addTrial(s.id, {}).number, 1);
    QCOMPARE(store->addTrial(other.id, {}).number, 0);  // per study
    const TrialRecord waiting = store->addTrial(s.id, {{"x", "1"}}, "WAITING");
    QCOMPARE(waiting.number, 2);
    QCOMPARE(waiting.retryOf, -1);
    QCOMPARE(waiting.startMs, int64_t(0));

    sleepMs(2);
    store->setTrialState(s.id, 2, "RUNNING");
    const TrialRecord started = *store->trial(s.id, 2);
    QVERIFY(started.startMs > waiting.createdMs);
    QCOMPARE(started.endMs, int64_t(0));
    store->setTrialState(s.id, 2, "PRUNED", {}, "below the median at step 3");
    const TrialRecord pruned = *store->trial(s.id, 2);
    QVERIFY(pruned.endMs >= started.startMs);
    QCOMPARE(pruned.startMs, started.startMs);
    QCOMPARE(pruned.message, std::string("below the median at step 3"));
    store->setTrialState(s.id, 1, "FAILED", {}, "exit code 1");
    QVERIFY(store->trial(s.id, 1)->endMs > 0);

    // A retry gets the next number, never a reused one.
    const TrialRecord retry = store->addTrial(s.id, {}, "RUNNING", 1);
    QCOMPARE(retry.number, 3);
    QCOMPARE(retry.retryOf, 1);
    const auto all = store->trials(s.id);
    QCOMPARE(all.size(), size_t(4));
    for (size_t i = 0; i < all.size(); ++i) QCOMPARE(all[i].number, int(i));

    QVERIFY_THROWS_EXCEPTION(TrackingError, store->addTrial(s.id, {}, "DONE"));
    QVERIFY_THROWS_EXCEPTION(TrackingError, store->setTrialState(s.id, 0, "COMPLETED"));
    QVERIFY_THROWS_EXCEPTION(TrackingError, store->setTrialState(s.id, 99, "COMPLETE"));
    QVERIFY_THROWS_EXCEPTION(TrackingError, store->addTrial(999, {}));
    QVERIFY_THROWS_EXCEPTION(TrackingError, store->reportIntermediate(s.id, 99, 1, 0.0));
    QVERIFY_THROWS_EXCEPTION(TrackingError, store->linkTrialRun(s.id, 99, 0));
    QVERIFY_THROWS_EXCEPTION(TrackingError, store->linkTrialRun(s.id, 0, 12345));  // no such run
    QVERIFY_THROWS_EXCEPTION(TrackingError, store->trialHeartbeat(s.id, 99));
    QVERIFY(!store->trial(s.id, 99));
    QCOMPARE(store->trials(s.id).size(), size_t(4));  // the failed calls added nothing
  }

  void trialsChangedSinceSeesEachWrite() {
    auto store = Store::open(m_path);
    const StudyRecord s = store->createStudy(newStudy("s"));
    const StudyRecord other = store->createStudy(newStudy("other"));
    store->addTrial(s.id, {});
    store->addTrial(s.id, {});
    store->addTrial(other.id, {});
    QCOMPARE(store->trialsChangedSince(s.id, 0).size(), size_t(2));

    // Each kind of write makes the trial, and its study, come back from the polls.
    using Write = std::function<void()>;
    const std::vector<std::pair<const char *, Write>> writes = {
        {"state", [&] { store->setTrialState(s.id, 0, "COMPLETE", {1.0}); }},
        {"intermediate", [&] { store->reportIntermediate(s.id, 0, 5, 0.1); }},
        {"link", [&] { store->linkTrialRun(s.id, 0, store->createRun(newRun("e")).id); }},
    };
    for (const auto &[what, write] : writes) {
      const int64_t seen = std::max(store->trial(s.id, 1)->updatedMs, store->study(other.id)->updatedMs);
      // Both studies as last seen: `other` was written after `s`, maybe in a later millisecond.
      const int64_t studySeen = std::max(store->study(s.id)->updatedMs, store->study(other.id)->updatedMs);
      sleepMs(2);
      write();
      const auto changed = store->trialsChangedSince(s.id, seen);
      QVERIFY2(changed.size() == 1, what);
      QCOMPARE(changed[0].number, 0);
      QVERIFY2(store->trialsChangedSince(other.id, seen).empty(), what);
      const auto studies = store->studiesChangedSince(studySeen);
      QVERIFY2(studies.size() == 1 && studies[0].id == s.id, what);
    }

    // A new trial shows up too, with its study.
    const int64_t seen = store->trial(s.id, 0)->updatedMs;
    sleepMs(2);
    store->addTrial(s.id, {});
    QCOMPARE(store->trialsChangedSince(s.id, seen).size(), size_t(1));
    QCOMPARE(store->trialsChangedSince(s.id, seen).at(0).number, 2);
    QCOMPARE(store->studiesChangedSince(seen).size(), size_t(1));

    // A heartbeat is no change to re-read.
    const TrialRecord before = *store->trial(s.id, 2);
    const int64_t studyBefore = store->study(s.id)->updatedMs;
    sleepMs(2);
    store->trialHeartbeat(s.id, 2);
    QVERIFY(store->trial(s.id, 2)->heartbeatMs > before.updatedMs);
    QCOMPARE(store->trial(s.id, 2)->updatedMs, before.updatedMs);
    QCOMPARE(store->study(s.id)->updatedMs, studyBefore);
  }

  void failSilentTrials_data() {
    QTest::addColumn<QString>("state");
    QTest::addColumn<qint64>("heartbeatAgeMs");  // -1: never beaten
    QTest::addColumn<qint64>("writeAgeMs");      // start_ms and updated_ms
    QTest::addColumn<bool>("fails");
    QTest::newRow("running, heartbeat silent") << "RUNNING" << qint64(90000) << qint64(300000) << true;
    QTest::newRow("running, never beaten, old") << "RUNNING" << qint64(-1) << qint64(300000) << true;
    QTest::newRow("running, recent heartbeat") << "RUNNING" << qint64(5000) << qint64(300000) << false;
    QTest::newRow("running, recent write") << "RUNNING" << qint64(300000) << qint64(5000) << false;
    QTest::newRow("waiting, silent") << "WAITING" << qint64(-1) << qint64(300000) << false;
    QTest::newRow("complete, silent") << "COMPLETE" << qint64(300000) << qint64(300000) << false;
    QTest::newRow("pruned, silent") << "PRUNED" << qint64(300000) << qint64(300000) << false;
  }
  void failSilentTrials() {
    QFETCH(QString, state);
    QFETCH(qint64, heartbeatAgeMs);
    QFETCH(qint64, writeAgeMs);
    QFETCH(bool, fails);
    auto store = Store::open(m_path);
    const StudyRecord s = store->createStudy(newStudy("s"));
    const StudyRecord other = store->createStudy(newStudy("other"));
    const bool initial = tw::tracking::findState(tw::tracking::trialStates(), state.toStdString())->initial;
    const auto added = store->addTrial(s.id, {}, initial ? state.toStdString() : "RUNNING");
    if (!initial) store->setTrialState(s.id, added.number, state.toStdString());
    store->addTrial(other.id, {});
    // Both studies' trials aged alike: only the one asked about is failed.
    const int64_t now = tw::tracking::nowMs();
    const int64_t heartbeat = heartbeatAgeMs < 0 ? 0 : now - heartbeatAgeMs;
    const int64_t written = now - writeAgeMs;
    QVERIFY(execRaw(m_path, "UPDATE trials SET heartbeat_ms = " + std::to_string(heartbeat) +
                                ", start_ms = CASE WHEN start_ms = 0 THEN 0 ELSE " + std::to_string(written) +
                                " END, updated_ms = " + std::to_string(written)));
    const TrialRecord before = *store->trial(s.id, 0);
    const int64_t studyBefore = store->study(s.id)->updatedMs;

    const auto changed = store->failSilentTrials(s.id, kLimitMs);
    const TrialRecord after = *store->trial(s.id, 0);
    QCOMPARE(store->trial(other.id, 0)->state, std::string("RUNNING"));
    if (!fails) {
      QVERIFY(changed.empty());
      compareTrials(after, before);
      QCOMPARE(store->study(s.id)->updatedMs, studyBefore);
      return;
    }
    QCOMPARE(changed.size(), size_t(1));
    compareTrials(changed[0], after);
    QCOMPARE(after.state, std::string("FAILED"));
    QVERIFY(after.endMs >= now);
    QVERIFY(after.updatedMs >= now);
    QCOMPARE(after.startMs, before.startMs);
    QVERIFY2(after.message.find("no heartbeat since") != std::string::npos, after.message.c_str());
    QCOMPARE(store->trialsChangedSince(s.id, before.updatedMs).size(), size_t(1));
    QVERIFY(store->study(s.id)->updatedMs >= now);
    QVERIFY(store->failSilentTrials(s.id, kLimitMs).empty());  // once
  }

  void deletingARunKeepsItsTrial() {
    auto store = Store::open(m_path);
    const StudyRecord s = store->createStudy(newStudy("s"));
    const RunRecord run = store->createRun(newRun("e"));
    const RunRecord kept = store->createRun(newRun("e"));
    store->addTrial(s.id, {{"train.lr", "0.1"}});
    store->addTrial(s.id, {{"train.lr", "0.2"}});
    store->linkTrialRun(s.id, 0, run.id);
    store->linkTrialRun(s.id, 1, kept.id);
    store->reportIntermediate(s.id, 0, 1, 0.4);
    store->setTrialState(s.id, 0, "COMPLETE", {0.8});
    const TrialRecord before = *store->trial(s.id, 0);
    const int64_t studyBefore = store->study(s.id)->updatedMs;
    sleepMs(2);

    store->deleteRun(run.id);
    QVERIFY(!store->run(run.id));
    const auto after = store->trial(s.id, 0);
    QVERIFY(after);
    QCOMPARE(after->runId, int64_t(0));
    QCOMPARE(after->params, before.params);
    QCOMPARE(after->values, before.values);
    QCOMPARE(after->intermediate, before.intermediate);
    QCOMPARE(after->state, std::string("COMPLETE"));
    QVERIFY(after->updatedMs > before.updatedMs);  // Studio's poll sees the unlink
    QVERIFY(store->study(s.id)->updatedMs > studyBefore);
    QVERIFY(!store->trialOfRun(run.id));
    QCOMPARE(store->trial(s.id, 1)->runId, kept.id);
    QCOMPARE(queryText(m_path, "SELECT COUNT(*) FROM trials WHERE run_id IS NULL"), std::string("1"));
  }

  void fileFromBeforeStudiesIsMigrated() {
    // A file as schema 3 left it: today's file with the studies migration undone.
    int64_t runId = 0;
    {
      auto store = Store::open(m_path);
      RunRecord run = store->createRun(newRun("e", "old"));
      runId = run.id;
      store->setParams(run.id, {{"train.lr", "0.1"}});
      store->writeMetrics(run.id, series("val/accuracy", 0, 9));
    }
    QVERIFY(execRaw(m_path,
                    "DROP TABLE model_versions; DROP TABLE models; ALTER TABLE artifacts DROP COLUMN details; "
                    "ALTER TABLE artifacts DROP COLUMN sha256; "
                    "DROP TABLE trial_intermediate; DROP TABLE trial_values; DROP TABLE trial_params; "
                    "DROP TABLE trials; DROP TABLE studies; UPDATE schema_version SET version = 3"));
    QCOMPARE(queryText(m_path, countTablesSql("studies")), std::string("0"));

    auto store = Store::open(m_path);
    QCOMPARE(store->schemaVersion(), Store::currentSchemaVersion());
    const auto run = store->findRun("old");
    QVERIFY(run);
    QCOMPARE(run->id, runId);
    QCOMPARE(store->params(runId).at("train.lr"), std::string("0.1"));
    QCOMPARE(store->metricPoints(runId, "val/accuracy").size(), size_t(10));
    QVERIFY(store->listStudies().empty());
    const StudyRecord s = store->createStudy(newStudy("s"));
    store->addTrial(s.id, {});
    store->linkTrialRun(s.id, 0, runId);
    QCOMPARE(store->trialOfRun(runId)->studyId, s.id);
  }
};

QTEST_GUILESS_MAIN(TestTrackingStudies)
#include "test_tracking_studies.moc"
