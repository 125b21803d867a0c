// The poller on its own thread against a real database: it survives a missing database and
// picks it up once it exists, delivers long series in bounded chunks without gaps or repeats,
// and resends a run only when it changed.

#include "studio_fixture.h"

#include "tests/tracking/pg_cluster.h"

#include "ui/workspace/db_poller.h"

#include <QThread>

#include <cstdio>
#include <QtTest>

using tw::tracking::RunStatus;
using tw::ui::DbPoller;
using tw::ui::DbPollerOptions;
using tw::ui::DbState;
using tw::ui::MetricsUpdate;
using tw::ui::RunsUpdate;

namespace {

// Runs a poller on its own thread for the lifetime of the object, like WorkspaceSession does,
// and collects what it sends on the test's thread (queued, as the UI receives it).
struct PollerThread {
  QThread thread;
  DbPoller *poller;
  QObject receiver;
  std::vector<RunsUpdate> runs;
  std::vector<MetricsUpdate> metrics;
  std::vector<std::pair<DbState, QString>> states;
  int polls = 0;  // completed polls, counted after the updates each one sent

  PollerThread(const std::string &dbPath, DbPollerOptions options) : poller(new DbPoller(dbPath, options)) {
    QObject::connect(poller, &DbPoller::runsUpdated, &receiver, [this](const RunsUpdate &u) { runs.push_back(u); });
    QObject::connect(poller, &DbPoller::metricsAppended, &receiver,
                     [this](const MetricsUpdate &u) { metrics.push_back(u); });
    QObject::connect(poller, &DbPoller::stateChanged, &receiver,
                     [this](DbState state, const QString &detail) { states.emplace_back(state, detail); });
    QObject::connect(poller, &DbPoller::polled, &receiver, [this] { ++polls; });
    poller->moveToThread(&thread);
    QObject::connect(&thread, &QThread::started, poller, &DbPoller::start);
    QObject::connect(&thread, &QThread::finished, poller, &QObject::deleteLater);
    thread.start();
  }
  ~PollerThread() {
    thread.quit();
    thread.wait();
  }
  void watch(quint64 token, int64_t runId, std::vector<std::string> keys) {
    DbPoller *p = poller;
    QMetaObject::invokeMethod(p, [p, token, runId, keys] { p->watchRun(token, runId, keys); });
  }
};

DbPollerOptions fastOptions() {
  DbPollerOptions options;
  options.intervalMs = 50;
  return options;
}

}  // namespace

class TestDbPoller : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase() { tw::ui::registerPollMetaTypes(); }

  void missingDatabaseIsRetried() {
    QTemporaryDir tmp;
    const QString workspace = tmp.path() + QStringLiteral("/not-yet");
    const std::string dbPath = tw::tracking::workspaceStore(workspace.toStdString());
    PollerThread poller(dbPath, fastOptions());
    QTRY_VERIFY(!poller.states.empty());
    QCOMPARE(poller.states.front().first, DbState::Unavailable);
    QVERIFY(!poller.states.front().second.isEmpty());

    // The folder appears later (another process creates the workspace).
    tw::config::ensureWorkspace(workspace.toStdString());
    {
      auto store = tw::tracking::Store::open(dbPath);
      tw::tracking::NewRun run;
      run.name = "arrived-later";
      store->createRun(run);
    }
    QTRY_VERIFY(!poller.runs.empty());
    QCOMPARE(poller.runs.front().runs.at(0).run.name, std::string("arrived-later"));
    QTRY_COMPARE(poller.states.back().first, DbState::Ok);
  }

  // A tracking.db that is not SQLite (garbage, or SQLite's header over garbage) reads as
  // unavailable with SQLite's reason and the file named, is left byte for byte as it was, and a
  // real database put in its place is picked up without restarting Studio.
  void notSqliteIsUnavailableAndUntouched_data() {
    QTest::addColumn<QByteArray>("content");
    QByteArray garbage(6000, '\0');
    for (int i = 0; i < garbage.size(); ++i) garbage[i] = char((i * 7919 + 13) & 0xff);
    QTest::newRow("garbage") << garbage;
    QTest::newRow("sqlite header") << QByteArray("SQLite format 3\0", 16) + garbage;
  }
  void notSqliteIsUnavailableAndUntouched() {
    QFETCH(QByteArray, content);
    QTemporaryDir tmp;
    const std::string workspace = tmp.filePath("ws").toStdString();
    tw::config::ensureWorkspace(workspace);
    const QString db = QString::fromStdString(tw::tracking::workspaceStore(workspace));
    {
      QFile file(db);
      QVERIFY(file.open(QIODevice::WriteOnly));
      file.write(content);
    }
    PollerThread poller(db.toStdString(), fastOptions());
    QTRY_VERIFY(!poller.states.empty());
    const auto [state, detail] = poller.states.front();
    QCOMPARE(state, DbState::Unavailable);
    QVERIFY2(detail.contains(db) && (detail.contains("file is not a database") || detail.contains("malformed")),
             qPrintable(detail));
    {
      QFile file(db);
      QVERIFY(file.open(QIODevice::ReadOnly));
      QCOMPARE(file.readAll(), content);
    }
    QVERIFY(!QFile::exists(db + "-wal"));

    // Another process moves a real database into place.
    const std::string fresh = tmp.filePath("fresh.db").toStdString();
    {
      auto store = tw::tracking::Store::open(fresh);
      tw::tracking::NewRun run;
      run.name = "replaced";
      store->createRun(run);
    }
    QVERIFY(::rename(fresh.c_str(), db.toLocal8Bit().constData()) == 0);
    QTRY_VERIFY(!poller.runs.empty());
    QCOMPARE(poller.runs.front().runs.at(0).run.name, std::string("replaced"));
    QTRY_COMPARE(poller.states.back().first, DbState::Ok);
  }

  void seriesArriveInBoundedChunks() {
    tw::test::Workspace ws;
    auto run = ws.createRun("long");
    ws.store->writeMetrics(run.id, tw::test::trainLossRows(1, 1000));
    DbPollerOptions options = fastOptions();
    options.maxPointsPerSeries = 300;
    PollerThread poller(ws.dbPath(), options);
    poller.watch(7, run.id, {"train/loss", "val/loss"});

    std::vector<int64_t> steps;
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
          steps.clear();
          for (const auto &update : poller.metrics) {
            if (update.watchToken != 7 || update.runId != run.id) return false;
            for (const auto &chunk : update.series) {
              if (chunk.key != "train/loss" || chunk.points.size() > 300) return false;
              for (const auto &p : chunk.points) steps.push_back(p.step);
            }
          }
          return steps.size() >= 1000;
        }(),
        5000);
    QCOMPARE(steps.size(), size_t(1000));
    for (size_t i = 0; i < steps.size(); ++i) QCOMPARE(steps[i], int64_t(i + 1));
    QVERIFY(poller.metrics.size() >= 4);

    // Nothing new, nothing sent (two whole polls looked); new points arrive on their own.
    const size_t before = poller.metrics.size();
    const int polls = poller.polls;
    QTRY_VERIFY(poller.polls >= polls + 3);
    QCOMPARE(poller.metrics.size(), before);
    ws.store->writeMetrics(run.id, tw::test::trainLossRows(1001, 1005));
    QTRY_COMPARE(poller.metrics.size(), before + 1);
    QCOMPARE(poller.metrics.back().series.at(0).points.front().step, int64_t(1001));
  }

  // Several runs watched at once (curves overlaid): each run's points arrive in updates of
  // their own, whole and in order.
  void watchesSeveralRunsAtOnce() {
    tw::test::Workspace ws;
    auto a = ws.createRun("a");
    auto b = ws.createRun("b");
    ws.store->writeMetrics(a.id, tw::test::trainLossRows(1, 30));
    ws.store->writeMetrics(b.id, tw::test::trainLossRows(1, 70));
    PollerThread poller(ws.dbPath(), fastOptions());
    DbPoller *p = poller.poller;
    const std::vector<int64_t> ids = {a.id, b.id};
    QMetaObject::invokeMethod(p, [p, ids] { p->watchRuns(9, ids, {"train/loss"}); });
    auto received = [&](int64_t runId) {
      size_t points = 0;
      for (const auto &update : poller.metrics)
        if (update.watchToken == 9 && update.runId == runId)
          for (const auto &chunk : update.series) points += chunk.points.size();
      return points;
    };
    QTRY_COMPARE(received(a.id), size_t(30));
    QTRY_COMPARE(received(b.id), size_t(70));
    ws.store->writeMetrics(b.id, tw::test::trainLossRows(71, 75));
    QTRY_COMPARE(received(b.id), size_t(75));
    QCOMPARE(received(a.id), size_t(30));
  }

  void postgresStoreIsFollowedLive() {
    auto *cluster = tw_test::PgCluster::shared();
    if (!cluster) QSKIP(qPrintable(tw_test::PgCluster::unavailable()));
    const std::string url = cluster->createDatabase();
    auto store = tw::tracking::Store::open(url);
    tw::tracking::NewRun newRun;
    newRun.name = "on-the-server";
    const auto run = store->createRun(newRun);
    PollerThread poller(url, fastOptions());
    QTRY_VERIFY(!poller.runs.empty());
    QCOMPARE(poller.runs.back().runs.at(0).run.name, std::string("on-the-server"));
    QVERIFY(!poller.states.empty());
    QCOMPARE(poller.states.back().first, DbState::Ok);
    // Another process's writes (here another connection's) arrive as they are made.
    store->setStatus(run.id, RunStatus::Running);
    QTRY_VERIFY(poller.runs.back().runs.at(0).run.status == RunStatus::Running);
    poller.watch(5, run.id, {"train/loss"});
    store->writeMetrics(run.id, tw::test::trainLossRows(1, 40));
    auto received = [&] {
      size_t points = 0;
      for (const auto &update : poller.metrics)
        for (const auto &chunk : update.series) points += chunk.points.size();
      return points;
    };
    QTRY_COMPARE(received(), size_t(40));
    store->writeMetrics(run.id, tw::test::trainLossRows(41, 45));
    QTRY_COMPARE(received(), size_t(45));
  }

  void unchangedRunsAreNotResent() {
    tw::test::Workspace ws;
    auto run = ws.createRun("steady");
    DbPollerOptions options = fastOptions();
    options.recentOverlapMs = 0;
    PollerThread poller(ws.dbPath(), options);
    QTRY_COMPARE(poller.runs.size(), size_t(1));
    const int polls = poller.polls;
    QTRY_VERIFY(poller.polls >= polls + 3);  // polls that found the run unchanged
    QCOMPARE(poller.runs.size(), size_t(1));

    // A later millisecond stamp than the creation's: the clock seen to move on, not a wait.
    QTRY_VERIFY(tw::tracking::nowMs() > std::max(run.createdMs, run.updatedMs));
    ws.store->setStatus(run.id, RunStatus::Killed, "stopped on request");
    QTRY_COMPARE(poller.runs.size(), size_t(2));
    const auto &update = poller.runs.back();
    QCOMPARE(update.runs.size(), size_t(1));
    QCOMPARE(update.runs[0].run.status, RunStatus::Killed);
    QCOMPARE(update.runs[0].run.statusMessage, std::string("stopped on request"));
  }

  void latestMetricsTravelWithTheRun() {
    tw::test::Workspace ws;
    auto run = ws.createRun("scored");
    ws.store->writeMetrics(run.id, {{"val/accuracy", 10, 0.5, 0}, {"val/accuracy", 20, 0.75, 0}});
    PollerThread poller(ws.dbPath(), fastOptions());
    QTRY_VERIFY(!poller.runs.empty());
    const auto snapshot = poller.runs.front().runs.at(0);
    const auto *metric = snapshot.latestMetric("val/accuracy");
    QVERIFY(metric);
    QCOMPARE(metric->step, int64_t(20));
    QCOMPARE(metric->value, 0.75);
  }
};

QTEST_GUILESS_MAIN(TestDbPoller)
#include "test_db_poller.moc"
#include "tracking/workspace_store.h"
