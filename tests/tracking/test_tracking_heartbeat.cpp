// Run liveness against a real SQLite file: a heartbeat stamps heartbeat_ms without touching
// updated_ms, and failSilentRuns fails exactly the runs not yet ended (RUNNING, CREATED) whose
// last sign of life (heartbeat, start or latest write) is older than the limit. Ages are written
// into the file directly, so the tests need not wait a minute.

#include "tracking_fixture.h"

#include "tracking/store.h"

#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>

using namespace tracking_test;
using tw::tracking::RunRecord;
using tw::tracking::RunStatus;
using tw::tracking::Store;
using tw::tracking::TrackingError;

namespace {

constexpr int64_t kLimitMs = 60000;
constexpr int64_t kNever = -1;  // an age that leaves heartbeat_ms at 0

// 2025-01-02 03:04:05 UTC, in the past for any clock that runs these tests.
constexpr int64_t kFixedMs = 1735787045000;

}  // namespace

class TestTrackingHeartbeat : public QObject {
  Q_OBJECT

  QTemporaryDir *m_dir = nullptr;
  std::string m_path;

  // Backdates the run's timestamps to now - age; kNever leaves heartbeat_ms at 0.
  bool age(int64_t runId, int64_t heartbeatAgeMs, int64_t writeAgeMs) {
    const int64_t now = tw::tracking::nowMs();
    const int64_t heartbeat = heartbeatAgeMs == kNever ? 0 : now - heartbeatAgeMs;
    const int64_t written = now - writeAgeMs;
    return execRaw(m_path, "UPDATE runs SET heartbeat_ms = " + std::to_string(heartbeat) +
                               ", start_ms = CASE WHEN start_ms = 0 THEN 0 ELSE " + std::to_string(written) +
                               " END, updated_ms = " + std::to_string(written) + " WHERE id = " + std::to_string(runId));
  }

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

  void heartbeatLeavesUpdatedAlone() {
    auto store = Store::open(m_path);
    RunRecord run = store->createRun(newRun("e"));
    QCOMPARE(run.heartbeatMs, int64_t(0));
    store->setStatus(run.id, RunStatus::Running);
    const RunRecord running = *store->run(run.id);
    sleepMs(3);
    const int64_t before = tw::tracking::nowMs();
    store->heartbeat(run.id);
    const RunRecord beaten = *store->run(run.id);
    QVERIFY(beaten.heartbeatMs >= before);
    QCOMPARE(beaten.updatedMs, running.updatedMs);
    QCOMPARE(beaten.status, RunStatus::Running);
    // The GUI's change polling does not see a beat.
    QVERIFY(store->runsChangedSince(running.updatedMs).empty());
    // Every reader fills the field.
    QCOMPARE(store->listRuns().at(0).heartbeatMs, beaten.heartbeatMs);
    QCOMPARE(store->findRun(run.uuid)->heartbeatMs, beaten.heartbeatMs);
    QVERIFY_THROWS_EXCEPTION(TrackingError, store->heartbeat(12345));
  }

  void failSilentRuns_data() {
    QTest::addColumn<RunStatus>("status");
    QTest::addColumn<qint64>("heartbeatAgeMs");
    QTest::addColumn<qint64>("writeAgeMs");  // start_ms and updated_ms
    QTest::addColumn<bool>("fails");
    QTest::newRow("running, heartbeat silent") << RunStatus::Running << qint64(90000) << qint64(300000) << true;
    QTest::newRow("running, never beaten, old") << RunStatus::Running << qint64(kNever) << qint64(300000) << true;
    QTest::newRow("running, recent heartbeat") << RunStatus::Running << qint64(5000) << qint64(300000) << false;
    QTest::newRow("running, never beaten, recent write") << RunStatus::Running << qint64(kNever) << qint64(5000)
                                                          << false;
    QTest::newRow("running, old heartbeat, recent metrics") << RunStatus::Running << qint64(300000) << qint64(5000)
                                                             << false;
    // Recorded and never started: its launcher died before its worker said RUNNING.
    QTest::newRow("created, silent") << RunStatus::Created << qint64(kNever) << qint64(300000) << true;
    QTest::newRow("created, beaten for, silent") << RunStatus::Created << qint64(90000) << qint64(300000) << true;
    QTest::newRow("created, recent write") << RunStatus::Created << qint64(kNever) << qint64(5000) << false;
    QTest::newRow("created, recent heartbeat") << RunStatus::Created << qint64(5000) << qint64(300000) << false;
    QTest::newRow("finished, silent") << RunStatus::Finished << qint64(300000) << qint64(300000) << false;
    QTest::newRow("failed, silent") << RunStatus::Failed << qint64(300000) << qint64(300000) << false;
    QTest::newRow("killed, silent") << RunStatus::Killed << qint64(300000) << qint64(300000) << false;
  }
  void failSilentRuns() {
    QFETCH(RunStatus, status);
    QFETCH(qint64, heartbeatAgeMs);
    QFETCH(qint64, writeAgeMs);
    QFETCH(bool, fails);
    auto store = Store::open(m_path);
    RunRecord run = store->createRun(newRun("e"));
    if (status != RunStatus::Created) store->setStatus(run.id, RunStatus::Running);
    if (status != RunStatus::Running && status != RunStatus::Created) store->setStatus(run.id, status, "as it was");
    QVERIFY(age(run.id, heartbeatAgeMs, writeAgeMs));
    const RunRecord before = *store->run(run.id);

    const int64_t now = tw::tracking::nowMs();
    QCOMPARE(Store::kDefaultMaxSilenceMs, kLimitMs);  // the README's "after 60 s of silence"
    const auto changed = store->failSilentRuns();
    const RunRecord after = *store->run(run.id);
    if (!fails) {
      QVERIFY(changed.empty());
      QCOMPARE(after.status, before.status);
      QCOMPARE(after.statusMessage, before.statusMessage);
      QCOMPARE(after.endMs, before.endMs);
      QCOMPARE(after.updatedMs, before.updatedMs);
      return;
    }
    QCOMPARE(changed.size(), size_t(1));
    QCOMPARE(changed[0].id, run.id);
    QCOMPARE(changed[0].status, RunStatus::Failed);
    QCOMPARE(changed[0].statusMessage, after.statusMessage);
    QCOMPARE(changed[0].updatedMs, after.updatedMs);
    QCOMPARE(after.status, RunStatus::Failed);
    QVERIFY(after.endMs >= now);
    QVERIFY(after.updatedMs >= now);
    QCOMPARE(after.startMs, before.startMs);
    QCOMPARE(after.heartbeatMs, before.heartbeatMs);
    const int64_t silentSeconds = std::min(heartbeatAgeMs == kNever ? writeAgeMs : heartbeatAgeMs, writeAgeMs) / 1000;
    const std::string seconds = "(" + std::to_string(silentSeconds) + " s)";
    QVERIFY2(after.statusMessage.find(seconds) != std::string::npos, after.statusMessage.c_str());
    QVERIFY2(after.statusMessage.find("launcher was killed") != std::string::npos, after.statusMessage.c_str());
    // The GUI's change polling picks the failure up.
    QCOMPARE(store->runsChangedSince(before.updatedMs).size(), size_t(1));
    // Done once: the run is no longer RUNNING.
    QVERIFY(store->failSilentRuns(kLimitMs).empty());
  }

  void failSilentRunsReturnsExactlyTheChangedRuns() {
    auto store = Store::open(m_path);
    auto running = [&](int64_t heartbeatAgeMs, int64_t writeAgeMs) {
      RunRecord run = store->createRun(newRun("e"));
      store->setStatus(run.id, RunStatus::Running);
      if (!age(run.id, heartbeatAgeMs, writeAgeMs)) QTest::qFail("backdating a run failed", __FILE__, __LINE__);
      return run.id;
    };
    const int64_t deadA = running(120000, 400000);
    const int64_t alive = running(1000, 400000);
    const int64_t deadB = running(kNever, 90000);
    const int64_t finished = store->createRun(newRun("e")).id;
    store->setStatus(finished, RunStatus::Running);
    store->setStatus(finished, RunStatus::Finished);
    QVERIFY(age(finished, kNever, 400000));
    // A stop request left by the GUI clears with the failure, as with any end.
    store->requestStop(deadA);
    QVERIFY(age(deadA, 120000, 400000));

    const auto changed = store->failSilentRuns(kLimitMs);
    QCOMPARE(changed.size(), size_t(2));
    QCOMPARE(changed[0].id, deadA);
    QCOMPARE(changed[1].id, deadB);
    for (const RunRecord &run : changed) QCOMPARE(run.status, RunStatus::Failed);
    QVERIFY(!store->stopRequested(deadA));
    QCOMPARE(store->run(alive)->status, RunStatus::Running);
    QCOMPARE(store->run(finished)->status, RunStatus::Finished);
  }

  void messageNamesTheLastSignInUtc() {
    auto store = Store::open(m_path);
    RunRecord run = store->createRun(newRun("e"));
    store->setStatus(run.id, RunStatus::Running);
    const std::string fixed = std::to_string(kFixedMs);
    QVERIFY(execRaw(m_path, "UPDATE runs SET start_ms = " + fixed + " - 5000, updated_ms = " + fixed +
                                " - 1000, heartbeat_ms = " + fixed + " WHERE id = " + std::to_string(run.id)));
    const auto changed = store->failSilentRuns(kLimitMs);
    QCOMPARE(changed.size(), size_t(1));
    const std::string &message = changed[0].statusMessage;
    QVERIFY2(message.rfind("no heartbeat since 2025-01-02 03:04:05 UTC (", 0) == 0, message.c_str());
    QVERIFY2(message.find(" s): its launcher was killed or its machine stopped") != std::string::npos,
             message.c_str());
  }

  void realClockSilence() {
    // The same, by the clock: a beat keeps the run alive, silence beyond the limit fails it.
    constexpr int64_t kShortLimitMs = 1000;
    auto store = Store::open(m_path);
    RunRecord run = store->createRun(newRun("e"));
    store->setStatus(run.id, RunStatus::Running);
    store->heartbeat(run.id);
    QVERIFY(store->failSilentRuns(kShortLimitMs).empty());
    sleepMs(int(kShortLimitMs) + 200);
    // Another connection, like the GUI's, fails it.
    auto reader = Store::open(m_path);
    const auto changed = reader->failSilentRuns(kShortLimitMs);
    QCOMPARE(changed.size(), size_t(1));
    QCOMPARE(store->run(run.id)->status, RunStatus::Failed);
  }
};

QTEST_GUILESS_MAIN(TestTrackingHeartbeat)
#include "test_tracking_heartbeat.moc"
